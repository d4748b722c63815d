import type { DB } from '../db';

/**
 * The rows of the mail outbox (index.ts delivers them; the local mailbox lists them). A mail's body
 * is sealed (body.ts) and kept only until the mail is delivered or fails for good: what stays of a
 * row (to, subject, template, status, attempts, error) is what the recent actions and a bounce need.
 */

const iso = (ms: number) => new Date(ms).toISOString();

export async function insertOutboxMail(
  db: DB,
  mail: {
    toAddress: string;
    subject: string;
    bodySealed: string;
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
      // the plain columns hold only the bodies of rows written before migration 031
      textBody: '',
      htmlBody: null,
      bodySealed: mail.bodySealed,
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
  'bodySealed',
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

/** What a row keeps of its body once delivered or failed: nothing. */
const NO_BODY = { bodySealed: null, textBody: '', htmlBody: null } as const;

/**
 * Mails delivered, many at once: their bodies go in the same statement, unless `keepBodies` (the
 * local mailbox, whose page shows them from here).
 */
export async function markMailsSent(db: DB, ids: readonly number[], keepBodies = false): Promise<void> {
  await db
    .updateTable('mailOutbox')
    .set((eb) => ({
      status: 'sent',
      sentAt: iso(Date.now()),
      lastError: null,
      attempts: eb('attempts', '+', 1),
      ...(keepBodies ? {} : NO_BODY),
    }))
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
      ...(failure.final ? { status: 'failed' as const, ...NO_BODY } : {}),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** No attempt remains: the row is failed with the last attempt's error (already counted). */
export async function markMailFailed(db: DB, id: number, lastError: string) {
  await db
    .updateTable('mailOutbox')
    .set({ status: 'failed', lastError: lastError.slice(0, 1000), ...NO_BODY })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** The local mailbox (development only): the newest mails, to one address or all. */
export function mailboxMails(db: DB, query: { to?: string; limit: number }) {
  let select = db
    .selectFrom('mailOutbox')
    .select(['id', 'toAddress', 'subject', 'textBody', 'htmlBody', 'bodySealed', 'createdAt', 'status'])
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit);
  if (query.to) select = select.where('toAddress', '=', query.to);
  return select.execute();
}

/** Rows written before migration 031 whose plain body is still there (waiting, or in the local mailbox). */
export function plainOutboxBodies(db: DB) {
  return db
    .selectFrom('mailOutbox')
    .select(['id', 'textBody', 'htmlBody'])
    .where('bodySealed', 'is', null)
    .where('textBody', '<>', '')
    .execute();
}

/** Replaces a row's plain body by its sealed one, unless another node did it first. */
export async function replacePlainBody(db: DB, id: number, bodySealed: string): Promise<void> {
  await db
    .updateTable('mailOutbox')
    .set({ bodySealed, textBody: '', htmlBody: null })
    .where('id', '=', id)
    .where('bodySealed', 'is', null)
    .execute();
}
