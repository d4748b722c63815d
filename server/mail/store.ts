import type { DB } from '../db';

/** The rows of the mail outbox (index.ts delivers them; the local mailbox lists them). */

const iso = (ms: number) => new Date(ms).toISOString();

export async function insertOutboxMail(
  db: DB,
  mail: {
    toAddress: string;
    subject: string;
    textBody: string;
    htmlBody: string | null;
    template: string;
    listUnsubscribe: string | null;
    now: string;
  },
): Promise<number> {
  const { id } = await db
    .insertInto('mailOutbox')
    .values({
      toAddress: mail.toAddress,
      subject: mail.subject,
      textBody: mail.textBody,
      htmlBody: mail.htmlBody,
      template: mail.template,
      listUnsubscribe: mail.listUnsubscribe,
      status: 'pending',
      attempts: 0,
      lastError: null,
      createdAt: mail.now,
      sentAt: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const OUTBOX_COLUMNS = [
  'id',
  'toAddress',
  'subject',
  'textBody',
  'htmlBody',
  'template',
  'listUnsubscribe',
  'status',
  'attempts',
  'createdAt',
] as const;

export function outboxMail(db: DB, id: number) {
  return db.selectFrom('mailOutbox').select(OUTBOX_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Several outbox rows at once (the deliveries gather their reads: decision 075). */
export function outboxMails(db: DB, ids: readonly number[]) {
  return db.selectFrom('mailOutbox').select(OUTBOX_COLUMNS).where('id', 'in', ids).execute();
}

export type OutboxMail = Awaited<ReturnType<typeof outboxMails>>[number];

/** Mails the SMTP peer accepted, many at once. */
export async function markMailsSent(db: DB, ids: readonly number[]): Promise<void> {
  await db
    .updateTable('mailOutbox')
    .set((eb) => ({ status: 'sent', sentAt: iso(Date.now()), lastError: null, attempts: eb('attempts', '+', 1) }))
    .where('id', 'in', ids)
    .execute();
}

/** One attempt failed: `final` when no other will follow (the row is then failed). */
export async function markMailAttemptFailed(db: DB, id: number, failure: { lastError: string; final: boolean }) {
  await db
    .updateTable('mailOutbox')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      lastError: failure.lastError.slice(0, 1000),
      ...(failure.final ? { status: 'failed' as const } : {}),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** No attempt remains: the row is failed with the last attempt's error (already counted). */
export async function markMailFailed(db: DB, id: number, lastError: string) {
  await db
    .updateTable('mailOutbox')
    .set({ status: 'failed', lastError: lastError.slice(0, 1000) })
    .where('id', '=', id)
    .where('status', '=', 'pending')
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
