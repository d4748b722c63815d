import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import * as repo from './repo';
import { applyStatus, syncSubscription } from './sync';

/**
 * A self-service customer's free trial (docs/billing.md): it starts with the customer, lasts
 * `PAYMENT_TRIAL_DAYS` (its end is the subscription's `currentPeriodEnd`, as Stripe's trialing
 * subscriptions keep theirs), and a trial still unpaid at its end is cancelled: the service is
 * suspended, its instances archived, until the customer subscribes.
 */

export const TRIAL_END_JOB = 'billing.trialEnd';
declare module '../../jobs/types' {
  interface QueuedJobs {
    /** a customer's free trial ends (at `trialEnd`) */
    'billing.trialEnd': { customerId: number; trialEnd: string };
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The trial subscription of a new self-service customer, with its end queued, in the caller's transaction. */
export async function startTrial(ctx: AppContext, trx: DB, customerId: number, now = new Date()): Promise<void> {
  const trialEnd = new Date(now.getTime() + ctx.config.payments.trialDays * DAY_MS).toISOString();
  await repo.insertSubscription(trx, {
    customerId,
    provider: 'builtin',
    providerCustomerId: null,
    providerSubscriptionId: null,
    status: 'trial',
    currentPeriodEnd: trialEnd,
    graceUntil: null,
  });
  await ctx.jobs.enqueue(trx, TRIAL_END_JOB, { customerId, trialEnd }, { runAt: new Date(trialEnd) });
}

/**
 * The end of a trial (its job). The provider is read first: a subscription paid meanwhile has moved
 * the customer on. A customer still in the same trial is cancelled; any other state is left alone.
 */
export async function endTrial(ctx: AppContext, actor: Actor, input: { customerId: number; trialEnd: string }) {
  await syncSubscription(ctx, actor, { customerId: input.customerId });
  await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findSubscription(trx, input.customerId, { lock: true });
    if (row?.status !== 'trial' || row.currentPeriodEnd !== input.trialEnd) return;
    await applyStatus(ctx, trx, actor, row, 'canceled', { now: new Date() });
  });
}
