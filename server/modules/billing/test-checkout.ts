import { TEST_CHECKOUT_ACTIONS, type TestCheckoutAction } from '../../../common/billing';
import type { TestCheckoutOutcome, TestCheckoutSession } from '../../../common/api/test-checkout';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import { badRequest, conflict, forbidden, notFound } from '../../http-error';
import { type BuiltinPaymentProvider, isBuiltinPayments } from '../../integrations/payments';
import type { CustomerAccess } from '../../policy';
import { mayUseTestCheckout } from './policy';
import { findSubscription } from './repo';
import { GRACE_END_JOB } from './sync';

/**
 * The pages of the built-in test checkout (docs/billing.md): what a session shows and what a tester
 * does there. They exist only while the test checkout takes the payments; with Stripe, or with no
 * payments at all, no session is found.
 */

const NOT_FOUND = 'Test checkout session not found';
const NOT_IN_GRACE = 'The customer is not in grace: have a renewal fail first';

async function sessionFor(ctx: AppContext, access: CustomerAccess, sessionId: string) {
  if (!isBuiltinPayments(ctx.payments) || !ctx.config.payments.available) throw notFound(NOT_FOUND);
  const view = await ctx.payments.view(sessionId);
  if (!view || view.customerId !== access.customer.id) throw notFound(NOT_FOUND);
  if (!mayUseTestCheckout(access, view.kind)) throw forbidden();
  return { view, payments: ctx.payments as BuiltinPaymentProvider };
}

export async function getTestCheckoutSession(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; sessionId: string },
): Promise<TestCheckoutSession> {
  const { view } = await sessionFor(ctx, input.customerAccess, input.sessionId);
  return { ...view, customerName: input.customerAccess.customer.name };
}

export async function actOnTestCheckoutSession(
  ctx: AppContext,
  _actor: Actor,
  input: { customerAccess: CustomerAccess; sessionId: string; action: TestCheckoutAction },
): Promise<TestCheckoutOutcome> {
  const { view, payments } = await sessionFor(ctx, input.customerAccess, input.sessionId);
  const allowed: readonly string[] = TEST_CHECKOUT_ACTIONS[view.kind];
  if (!allowed.includes(input.action)) {
    throw badRequest(`This page offers: ${allowed.join(', ')}`, [{ path: 'action', message: 'billing.errors.action' }]);
  }
  if (input.action === 'graceOver') return endGraceNow(ctx, input.customerAccess.customer.id);
  return payments.act(input.sessionId, input.action);
}

/**
 * The tester's "end the grace period now": the portal's own clock, which no provider moves. The
 * grace's end runs now, as its job would at `graceUntil` (it reads the provider first, then makes
 * the customer past due and suspends the service).
 */
async function endGraceNow(ctx: AppContext, customerId: number): Promise<TestCheckoutOutcome> {
  const row = await findSubscription(ctx.db, customerId);
  if (row?.status !== 'grace' || !row.graceUntil) throw conflict(NOT_IN_GRACE);
  await ctx.jobs.enqueue(ctx.db, GRACE_END_JOB, { customerId, graceUntil: row.graceUntil });
  return { url: null, declined: false };
}
