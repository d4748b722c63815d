import type { PaymentStatus } from '../../../common/domain';
import { formatDayMonthYear } from '../../../common/format';
import { type Actor, actorLabel } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import type { ProviderSubscription } from '../../integrations/payments';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { pageLink } from '../notifications/events';
import * as repo from './repo';
import { isRunning, mayMove, statusFromProvider, SUSPENDED_STATUSES } from './status';
import { restoreCustomerService, suspendCustomerService } from './suspension';

/**
 * Following a customer's subscription (docs/billing.md): one function, `syncSubscription`, reads the
 * subscription from the provider and writes what it says, whatever told the portal to look (an event
 * of the provider, the customer back from the checkout, the end of grace). Events may come twice, late
 * or out of order: none is trusted for its content, each is a reason to read the provider again.
 */

export const GRACE_END_JOB = 'billing.graceEnd';
declare module '../../jobs/types' {
  interface QueuedJobs {
    /** a customer's grace after a failed payment ends (at `graceUntil`) */
    'billing.graceEnd': { customerId: number; graceUntil: string };
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from `now` until `until`, at least 0. */
export const daysUntil = (until: string, now: Date): number =>
  Math.max(0, Math.ceil((Date.parse(until) - now.getTime()) / DAY_MS));

/**
 * Reads the customer's subscription from the provider and brings the portal's in line: its status
 * (through the state machine), its period and its provider subscription. Answers the status after.
 * The provider is read outside the transaction (a network call holds no database connection); the
 * write locks the subscription, so two syncs at once write one after the other and the second finds
 * nothing left to do.
 */
export async function syncSubscription(
  ctx: AppContext,
  actor: Actor,
  input: { customerId: number },
): Promise<PaymentStatus | null> {
  const before = await repo.findSubscription(ctx.db, input.customerId);
  // nothing at this provider yet (a trial without a card, a checkout never opened)
  if (!before?.providerCustomerId || before.provider !== ctx.payments.name) return before?.status ?? null;
  const remote = await ctx.payments.currentSubscription(before.providerCustomerId);
  return ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findSubscription(trx, input.customerId, { lock: true });
    if (!row || row.providerCustomerId !== before.providerCustomerId) return row?.status ?? null;
    const now = new Date();
    return applyStatus(ctx, trx, actor, row, statusFromProvider(remote, row, now), { remote, now });
  });
}

/**
 * Moves a subscription to `next` with what the move entails, in the caller's transaction (the row
 * locked): the state machine's verdict (a refused move changes nothing and is logged), the start of
 * grace (its end queued, the customer's managers mailed), the service suspended or restored, one
 * audit entry. Staying in the same status only records a new period (a renewal).
 */
export async function applyStatus(
  ctx: AppContext,
  trx: DB,
  actor: Actor,
  row: repo.SubscriptionRow,
  next: PaymentStatus | null,
  options: { remote?: ProviderSubscription | null; now: Date },
): Promise<PaymentStatus | null> {
  const { remote, now } = options;
  const customerId = row.customerId;
  const facts = {
    providerSubscriptionId: remote?.id ?? row.providerSubscriptionId,
    currentPeriodEnd: remote?.currentPeriodEnd ?? row.currentPeriodEnd,
  };
  const factsChanged =
    facts.providerSubscriptionId !== row.providerSubscriptionId || facts.currentPeriodEnd !== row.currentPeriodEnd;

  if (next === null || next === row.status) {
    if (!factsChanged) return row.status;
    await repo.updateSubscription(trx, customerId, facts);
    // a new period of a running subscription: its renewal
    if (isRunning(row.status) && facts.currentPeriodEnd && facts.currentPeriodEnd !== row.currentPeriodEnd) {
      await audit(trx, actor, customerId, 'renewSubscription', { currentPeriodEnd: facts.currentPeriodEnd });
    }
    return row.status;
  }

  if (!mayMove(row.status, next)) {
    ctx.log.warn(
      { customerId, from: row.status, to: next, providerStatus: remote?.status ?? null, actor: actorLabel(actor) },
      'payment status transition refused',
    );
    return row.status;
  }

  const changes: Parameters<typeof repo.updateSubscription>[2] = { ...facts, status: next };
  const data: Record<string, unknown> = { from: row.status, to: next, providerStatus: remote?.status ?? null };
  if (next === 'grace') {
    const graceUntil = new Date(now.getTime() + ctx.config.payments.graceDays * DAY_MS).toISOString();
    changes.graceUntil = graceUntil;
    data.graceUntil = graceUntil;
    await ctx.jobs.enqueue(trx, GRACE_END_JOB, { customerId, graceUntil }, { runAt: new Date(graceUntil) });
    await mailGraceStart(ctx, trx, customerId, graceUntil, now);
  } else if (isRunning(next)) {
    changes.graceUntil = null;
  }
  // the service stops when a running subscription stops being paid, once; it comes back with a payment
  if (SUSPENDED_STATUSES.includes(next) && isRunning(row.status) && !row.suspendedAt) {
    changes.suspendedAt = now.toISOString();
    await suspendCustomerService(ctx, trx, actor, { customerId });
  } else if (isRunning(next) && row.suspendedAt) {
    changes.suspendedAt = null;
    await restoreCustomerService(ctx, trx, actor, { customerId });
  }
  await repo.updateSubscription(trx, customerId, changes);
  await audit(trx, actor, customerId, 'updatePaymentStatus', data);
  ctx.log.info({ customerId, from: row.status, to: next, actor: actorLabel(actor) }, 'payment status changed');
  return next;
}

function audit(
  trx: DB,
  actor: Actor,
  customerId: number,
  action: 'updatePaymentStatus' | 'renewSubscription',
  data: Record<string, unknown>,
) {
  return insertAuditEntry(trx, { customerId, by: auditActorOf(actor), action, data });
}

/** The customer's project managers and account executive hear that grace started, each in their language. */
async function mailGraceStart(ctx: AppContext, trx: DB, customerId: number, graceUntil: string, now: Date) {
  const days = daysUntil(graceUntil, now);
  for (const recipient of await repo.billingRecipients(trx, customerId)) {
    const locale = recipient.preferredLocale;
    await ctx.mail.send(
      {
        to: recipient.email,
        template: 'paymentGrace',
        locale,
        data: {
          fullName: recipient.fullName,
          customerName: recipient.customerName,
          graceUntil: formatDayMonthYear(graceUntil, locale),
          days,
          link: pageLink(ctx, locale, `/accounts/${customerId}`),
        },
      },
      trx,
    );
  }
}

/**
 * The end of a customer's grace (its job, queued for `graceUntil`). The provider is read first: a
 * payment that came back without its event ends grace the right way. If the same grace still runs, the
 * customer becomes past due and the service is suspended. A grace that ended otherwise, or a later one,
 * is left alone: each grace ends once.
 */
export async function endGrace(
  ctx: AppContext,
  actor: Actor,
  input: { customerId: number; graceUntil: string },
): Promise<void> {
  await syncSubscription(ctx, actor, { customerId: input.customerId });
  await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findSubscription(trx, input.customerId, { lock: true });
    if (row?.status !== 'grace' || row.graceUntil !== input.graceUntil) return;
    await applyStatus(ctx, trx, actor, row, 'pastDue', { now: new Date() });
  });
}
