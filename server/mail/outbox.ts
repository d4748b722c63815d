import type { DB } from '../db';
import type { MailMetrics } from '../metrics';
import * as store from './store';
import type { OutgoingMail, Transport } from './transport';

/**
 * The durable outbox: a mail is a row first, then a delivery. Several app nodes may flush at once; a
 * node claims a row by moving its nextAttemptAt forward, and naming itself in claimedBy, only if
 * nobody did so since it read it. The claim lapses after LEASE_MS if that node dies mid-delivery and
 * does not come back; a node that comes back releases its own claims at once (releaseOwnClaims),
 * since no delivery of its previous life can still be running. Decision 005 has the trade-off.
 */
const BATCH_SIZE = 20;
export const MAX_ATTEMPTS = 10;
/**
 * Longer than any one delivery may take (transport.ts bounds the SMTP waits well below it), so a
 * claim never lapses while its delivery runs: that is what keeps a mail from going twice.
 */
export const LEASE_MS = 3 * 60 * 1000;
const BASE_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60 * 1000;

/** Delay before the next try after `attempts` failed ones: 30 s, 1 min, 2 min… up to 1 h. */
export function retryDelayMs(attempts: number): number {
  return Math.min(BASE_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/**
 * Makes the mails this node had claimed due again. Called when the node starts: a claim of its
 * previous life belongs to a delivery the process died in, which would otherwise wait for the lease.
 */
export async function releaseOwnClaims(db: DB, node: string): Promise<number> {
  return store.releaseClaimsOf(db, node);
}

export async function deliverDueMails(deps: {
  db: DB;
  transport: Transport;
  from: string;
  node: string;
  metrics?: MailMetrics;
}) {
  const { db, transport, from, node } = deps;
  const due = await store.dueMails(db, Date.now(), BATCH_SIZE);

  let sent = 0;
  for (const row of due) {
    if (!(await store.claimMail(db, row, node, Date.now() + LEASE_MS))) continue;

    const mail: OutgoingMail = {
      from,
      to: row.toAddress,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody,
    };
    try {
      await transport.deliver(mail);
      await store.markMailSent(db, row.id);
      sent++;
      deps.metrics?.mailsSent.inc();
    } catch (error) {
      deps.metrics?.mailFailures.inc();
      const attempts = row.attempts + 1;
      await store.markMailFailed(db, row.id, {
        attempts,
        lastError: (error instanceof Error ? error.message : String(error)).slice(0, 1000),
        status: attempts >= MAX_ATTEMPTS ? 'failed' : 'pending',
        nextAttemptAt: Date.now() + retryDelayMs(attempts),
      });
    }
  }
  return sent;
}
