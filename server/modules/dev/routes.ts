import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openMailBody } from '../../mail/body';
import { mailboxMails } from '../../mail/store';
import { escapeHtml } from '../../mail/templates';

/**
 * The local mailbox: the mails of the outbox, for development and tests without an SMTP server (the
 * local delivery keeps their sealed bodies, which open here; a mail sent over SMTP keeps none).
 * buildApp registers these routes only when config.devMailbox is set, which production refuses.
 * They live outside /api, so the per-route access rules do not apply: anyone who reaches a
 * development server may read its mails, which is the point.
 */
const MailboxEntry = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  createdAt: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
});
const MailboxQuery = z.object({
  to: z.string().trim().toLowerCase().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

const LINK = /https?:\/\/[^\s<>"']+/g;

/** Escapes the text and turns its URLs into links (the URL is escaped once, then used twice). */
function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    html += escapeHtml(text.slice(last, match.index));
    const url = escapeHtml(match[0]);
    html += `<a href="${url}">${url}</a>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

const STYLE = `body{font-family:sans-serif;margin:2rem auto;max-width:60rem;color:#222}
article{border:1px solid #ccc;border-radius:6px;padding:1rem;margin:1rem 0}
header{display:flex;justify-content:space-between;gap:1rem;color:#555;font-size:.9rem}
h2{font-size:1.1rem;margin:.5rem 0}pre{white-space:pre-wrap;font-family:inherit}`;

export async function devMailboxRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;

  async function mails(query: z.infer<typeof MailboxQuery>) {
    const rows = await mailboxMails(db, query);
    return rows.map((r) => {
      const body = openMailBody(config.sealSecrets, r);
      return {
        id: r.id,
        to: r.toAddress,
        subject: r.subject,
        text: body?.text ?? '',
        html: body?.html ?? null,
        createdAt: r.createdAt,
        status: r.status,
      };
    });
  }

  api.get(
    '/dev/mailbox.json',
    { schema: { hide: true, querystring: MailboxQuery, response: { 200: z.array(MailboxEntry) } } },
    async (request) => mails(request.query),
  );

  api.get('/dev/mailbox', { schema: { hide: true, querystring: MailboxQuery } }, async (request, reply) => {
    const list = await mails(request.query);
    const articles = list.map(
      (m) => `<article>
<header><span>To: ${escapeHtml(m.to)}</span><span>${escapeHtml(m.createdAt)} · ${escapeHtml(m.status)}</span></header>
<h2>${escapeHtml(m.subject)}</h2>
<pre>${linkify(m.text)}</pre>
</article>`,
    );
    const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Local mailbox</title><style>${STYLE}</style></head>
<body><h1>Local mailbox</h1>
<p>Mails the portal sent while no SMTP server is configured, newest first.</p>
${articles.join('\n') || '<p>No mail yet.</p>'}
</body></html>`;
    return reply.type('text/html; charset=utf-8').send(page);
  });
}
