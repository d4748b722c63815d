import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { REDACTED, redactUrl } from '../log';

interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** the same on every attempt of one mail, so a receiver can drop a replay */
  messageId: string;
  /** a notification's settings page (RFC 2369 List-Unsubscribe) */
  listUnsubscribe?: string | null;
}

/** Where the outbox hands its mails. */
export interface Transport {
  readonly kind: 'smtp' | 'local';
  deliver(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * Timeouts well below the delivery job's time bound (server/job-kinds.ts), so a slow or stuck server
 * gives up long before the attempt counts as lost and another node takes the mail over.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 20_000, greetingTimeout: 20_000, socketTimeout: 30_000 };

export function smtpTransport(url: string): Transport {
  // pooled: connections are kept and reused by the delivery jobs running at once (up to 10)
  const transporter = nodemailer.createTransport({ url, pool: true, maxConnections: 10, ...SMTP_TIMEOUTS });
  return {
    kind: 'smtp',
    async deliver(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        messageId: mail.messageId,
        ...(mail.listUnsubscribe ? { list: { unsubscribe: mail.listUnsubscribe } } : {}),
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
    },
    close: () => transporter.close(),
  };
}

const LINK = /https?:\/\/[^\s<>"']+/g;

/**
 * Without SMTP the mail stays in the outbox, where the local mailbox page (/dev/mailbox) shows it.
 * The log names its links with their secrets (reset tokens, invitation keys) removed: logs are
 * kept and shipped where a working link must not go.
 */
export function localTransport(log: FastifyBaseLogger): Transport {
  return {
    kind: 'local',
    async deliver(mail) {
      const links = (mail.text.match(LINK) ?? []).map((link) => {
        if (!URL.canParse(link)) return REDACTED;
        const url = new URL(link);
        return `${url.origin}${redactUrl(`${url.pathname}${url.search}`)}`;
      });
      log.info({ to: mail.to, subject: mail.subject, links }, 'mail kept in the local mailbox (see /dev/mailbox)');
    },
    close: () => {},
  };
}
