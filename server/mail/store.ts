import type { DB } from '../db';
import type { OutboxStatus } from '../../common/domain';

/** The rows of the mail outbox (outbox.ts delivers them; the local mailbox lists them). */

const iso = (ms: number) => new Date(ms).toISOString();

export async function insertOutboxMail(
  db: DB,
  mail: {
    toAddress: string;
    subject: string;
    textBody: string;
    htmlBody: string | null;
    template: string;
    now: string;
  },
): Promise<void> {
  await db
    .insertInto('mailOutbox')
    .values({
      toAddress: mail.toAddress,
      subject: mail.subject,
      textBody: mail.textBody,
      htmlBody: mail.htmlBody,
      template: mail.template,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: mail.now,
      claimedBy: null,
      lastError: null,
      createdAt: mail.now,
      sentAt: null,
    })
    .execute();
}

/** Makes the pending mails `node` had claimed due now; returns how many. */
export async function releaseClaimsOf(db: DB, node: string): Promise<number> {
  const now = iso(Date.now());
  const result = await db
    .updateTable('mailOutbox')
    .set({ nextAttemptAt: now, claimedBy: null })
    .where('status', '=', 'pending')
    .where('claimedBy', '=', node)
    .where('nextAttemptAt', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Up to `limit` pending mails due at `now`, the longest waiting first. */
export function dueMails(db: DB, now: number, limit: number) {
  return db
    .selectFrom('mailOutbox')
    .select(['id', 'toAddress', 'subject', 'textBody', 'htmlBody', 'attempts', 'nextAttemptAt'])
    .where('status', '=', 'pending')
    .where('nextAttemptAt', '<=', iso(now))
    .orderBy('nextAttemptAt')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Claims a mail for `node` until `until`, only if nobody did since it was read (its nextAttemptAt
 * is still the one read): true when this node has it.
 */
export async function claimMail(
  db: DB,
  row: { id: number; nextAttemptAt: string },
  node: string,
  until: number,
): Promise<boolean> {
  const claim = await db
    .updateTable('mailOutbox')
    .set({ nextAttemptAt: iso(until), claimedBy: node })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('nextAttemptAt', '=', row.nextAttemptAt)
    .executeTakeFirst();
  return Number(claim.numUpdatedRows) === 1;
}

export async function markMailSent(db: DB, id: number): Promise<void> {
  await db
    .updateTable('mailOutbox')
    .set({ status: 'sent', sentAt: iso(Date.now()), lastError: null, claimedBy: null })
    .where('id', '=', id)
    .execute();
}

export async function markMailFailed(
  db: DB,
  id: number,
  failure: { attempts: number; lastError: string; status: OutboxStatus; nextAttemptAt: number },
): Promise<void> {
  await db
    .updateTable('mailOutbox')
    .set({
      attempts: failure.attempts,
      lastError: failure.lastError,
      status: failure.status,
      nextAttemptAt: iso(failure.nextAttemptAt),
      claimedBy: null,
    })
    .where('id', '=', id)
    .execute();
}

/** The local mailbox (development only): the newest mails, to one address or all. */
export function mailboxMails(db: DB, query: { to?: string; limit: number }) {
  let select = db
    .selectFrom('mailOutbox')
    .select(['id', 'toAddress', 'subject', 'textBody', 'htmlBody', 'createdAt', 'status'])
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit);
  if (query.to) select = select.where('toAddress', '=', query.to);
  return select.execute();
}
