import fs from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { ENV, requireEnv, type StoredMessage } from './environment';

interface ParsedMail {
  /** addresses from the To header, lowercased */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** absolute http(s) links of the text part, then those only the HTML part has */
  links: string[];
}

export interface Mail extends ParsedMail {
  receivedAt: Date;
  /** envelope recipients, lowercased */
  recipients: string[];
  raw: string;
}

interface MailQuery {
  /** recipient address (envelope or To header) */
  to: string;
  /** only mails received at or after this instant */
  since?: Date;
  subject?: RegExp;
  /** a link of the mail must match (e.g. the reset-password path) */
  link?: RegExp;
  timeoutMs?: number;
}

function findLinks(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"'`)\]]+/g) ?? [];
  return [...new Set(found.map((link) => link.replace(/[.,;:!?]+$/, '')))];
}

// Links in HTML attributes carry entities (`&amp;`); the text part's links are literal.
function decodeHtmlEntities(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_all, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_all, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
}

export async function parseMail(raw: string): Promise<ParsedMail> {
  const email = await PostalMime.parse(raw);
  const to = (email.to ?? []).flatMap((address) => (address.group ?? [address]).map((m) => m.address));
  const text = email.text ?? '';
  const html = email.html ?? '';
  return {
    to: to.map((address) => address.toLowerCase()),
    subject: email.subject ?? '',
    text,
    html,
    links: [...new Set([...findLinks(text), ...findLinks(decodeHtmlEntities(html))])],
  };
}

async function readMailbox(): Promise<Mail[]> {
  const dir = requireEnv(ENV.mailDir);
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  const mails: Mail[] = [];
  for (const name of names) {
    const stored = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as StoredMessage;
    mails.push({
      ...(await parseMail(stored.raw)),
      receivedAt: new Date(stored.receivedAt),
      recipients: stored.envelope.to,
      raw: stored.raw,
    });
  }
  return mails;
}

function matches(mail: Mail, query: MailQuery): boolean {
  const to = query.to.toLowerCase();
  if (!mail.recipients.includes(to) && !mail.to.includes(to)) return false;
  if (query.since && mail.receivedAt < query.since) return false;
  if (query.subject && !query.subject.test(mail.subject)) return false;
  if (query.link && !mail.links.some((l) => query.link?.test(l))) return false;
  return true;
}

/** Waits for the first mail matching the query: the portal delivers from an outbox in the background. */
export async function waitForMail(query: MailQuery): Promise<Mail> {
  const deadline = Date.now() + (query.timeoutMs ?? 30_000);
  for (;;) {
    const found = (await readMailbox()).find((mail) => matches(mail, query));
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = (await readMailbox()).map((m) => `  to ${m.recipients.join(', ')}: "${m.subject}"`).join('\n');
      throw new Error(`No mail to ${query.to} matching the query arrived. Mails received:\n${seen || '  (none)'}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The mails received so far that match the query, without waiting: to tell that one did not come. */
export async function mailsNow(query: MailQuery): Promise<Mail[]> {
  return (await readMailbox()).filter((mail) => matches(mail, query));
}

/** The one link of the mail that matches `pattern`, as a URL. */
export function linkIn(mail: Mail, pattern: RegExp): URL {
  const found = mail.links.filter((l) => pattern.test(l));
  if (found.length === 0) {
    throw new Error(`No link matching ${pattern} in the mail "${mail.subject}". Links: ${mail.links.join(', ')}`);
  }
  return new URL(found[0]);
}
