import type { DB } from '../db';
import type { OutgoingMail, Transport } from './transport';

/**
 * The durable outbox: a mail is a row first, then a delivery. Several app nodes may flush at once; a
 * node claims a row by moving its nextAttemptAt forward only if nobody did so since it read it, and
 * the claim lapses after LEASE_MS if that node dies mid-delivery.
 */
export const BATCH_SIZE = 20;
export const MAX_ATTEMPTS = 10;
export const LEASE_MS = 5 * 60 * 1000;
const BASE_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60 * 1000;

/** Delay before the next try after `attempts` failed ones: 30 s, 1 min, 2 min… up to 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(BASE_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function deliverDueMails(deps: { db: DB; transport: Transport; from: string }): Promise<number> {
  const { db, transport, from } = deps;
  const now = Date.now();
  const due = await db
    .selectFrom('mailOutbox')
    .select(['id', 'toAddress', 'subject', 'textBody', 'htmlBody', 'attempts', 'nextAttemptAt'])
    .where('status', '=', 'pending')
    .where('nextAttemptAt', '<=', iso(now))
    .orderBy('nextAttemptAt')
    .orderBy('id')
    .limit(BATCH_SIZE)
    .execute();

  let sent = 0;
  for (const row of due) {
    const claim = await db
      .updateTable('mailOutbox')
      .set({ nextAttemptAt: iso(Date.now() + LEASE_MS) })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('nextAttemptAt', '=', row.nextAttemptAt)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;

    const mail: OutgoingMail = {
      from,
      to: row.toAddress,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody,
    };
    try {
      await transport.deliver(mail);
      await db
        .updateTable('mailOutbox')
        .set({ status: 'sent', sentAt: iso(Date.now()), lastError: null })
        .where('id', '=', row.id)
        .execute();
      sent++;
    } catch (error) {
      const attempts = row.attempts + 1;
      await db
        .updateTable('mailOutbox')
        .set({
          attempts,
          lastError: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
          status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
          nextAttemptAt: iso(Date.now() + retryDelayMs(attempts)),
        })
        .where('id', '=', row.id)
        .execute();
    }
  }
  return sent;
}
