import type { DB } from '../db';
import { type OpeningSecrets, sealText, unsealText } from '../security/seal';
import { plainOutboxBodies, replacePlainBody } from './store';

/**
 * A mail's text and HTML while it waits in the outbox (docs/decisions/083): sealed under the server
 * secret like the other secrets the portal reads back (server/security/seal.ts), because most mails
 * carry a link that grants access (a first password, a reset, an invitation, a sign-up). A copy of
 * the database alone, a backup or a replica, opens none of them. The body is dropped once the SMTP
 * peer accepted the mail, or once it failed for good.
 */
export const MAIL_SEAL = { salt: 'mail-outbox', info: 'portal mail body' };

interface MailBody {
  text: string;
  html: string | null;
}

export function sealMailBody(secret: string, body: MailBody): string {
  return sealText(secret, MAIL_SEAL, JSON.stringify({ text: body.text, html: body.html }));
}

/**
 * The body of an outbox row: the sealed one, or the plain columns of a row written before migration
 * 031 (the start seals those). Null when the sealed body opens under none of the secrets (a
 * database restored with another SESSION_SECRET) or was dropped.
 */
export function openMailBody(
  secrets: OpeningSecrets,
  row: { bodySealed: string | null; textBody: string; htmlBody: string | null },
): MailBody | null {
  if (row.bodySealed === null) return row.textBody === '' ? null : { text: row.textBody, html: row.htmlBody };
  const opened = unsealText(secrets, MAIL_SEAL, row.bodySealed);
  if (opened === null) return null;
  const body = JSON.parse(opened) as MailBody;
  return { text: body.text, html: body.html };
}

/**
 * At start: the bodies that rows written before migration 031 still hold in the clear (mails that
 * were waiting, or kept by the local mailbox) are sealed. Answers how many.
 */
export async function sealPlainOutboxBodies(db: DB, secret: string): Promise<number> {
  const rows = await plainOutboxBodies(db);
  for (const row of rows) {
    await replacePlainBody(db, row.id, sealMailBody(secret, { text: row.textBody, html: row.htmlBody }));
  }
  return rows.length;
}
