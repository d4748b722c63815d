import { type Actor, integrationActor } from '../../actor';
import type { AppContext } from '../../context';
import { badRequest } from '../../http-error';
import { isBuiltinPayments, type StripeShapedEvent } from '../../integrations/payments';
import { loadStripe } from '../../integrations/payments/stripe';
import * as repo from './repo';
import { requirePayments, viaProvider } from './service';
import { syncSubscription } from './sync';

/**
 * The payment provider's events (`POST /api/stripe/webhooks`, docs/billing.md): the raw body checked
 * against its signature with Stripe's tolerance (5 minutes, both ways), each event handled once by its id, and
 * handled by reading the subscription again rather than by trusting what the event says, so that
 * events arriving twice, late or out of order leave the subscription as the provider has it.
 */

/** The events that may change where a customer stands; others are acknowledged and ignored. */
const HANDLED_EVENTS = [
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
] as const;

/** A bad signature is a request that does not hold up, answered as any other (400 validation_error). */
const invalidSignature = () => badRequest('The event signature is not valid or is too old');

/** How far a signature's time may be from the portal's clock, in seconds: Stripe's tolerance. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The time the signature header states (`t=`, the last one as Stripe's check reads it), in seconds.
 * Stripe's check refuses only a time too far in the past; a time ahead of the clock is refused
 * here, so that a captured signature cannot be stamped to stay usable later.
 */
function signedAt(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(',')) {
    const [name, value] = item.split('=');
    if (name === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp;
}

/** The provider customer an event's object belongs to (a session, an invoice, a subscription). */
function providerCustomerOf(object: Record<string, unknown>): string | null {
  const customer = object.customer;
  if (typeof customer === 'string') return customer;
  if (customer && typeof customer === 'object' && typeof (customer as { id?: unknown }).id === 'string') {
    return (customer as { id: string }).id;
  }
  return null;
}

/**
 * One event, as received: verified, recorded, handled. A duplicate answers as the first did and
 * changes nothing. A failure while handling forgets the event, so that the provider's next delivery
 * of it (it retries for days) is handled; the failure answers 5xx, which asks for that delivery.
 */
export async function receiveProviderEvent(
  ctx: AppContext,
  actor: Actor,
  input: { payload: Buffer; signature: string | undefined },
): Promise<{ received: true }> {
  requirePayments(ctx);
  if (!input.signature) throw invalidSignature();
  const secret = await ctx.payments.webhookSecret();
  const Stripe = await loadStripe();
  let event: { id: string; type: string; data: { object: unknown } };
  try {
    event = Stripe.webhooks.constructEvent(input.payload, input.signature, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch {
    ctx.log.warn('payment event refused: its signature does not hold');
    throw invalidSignature();
  }
  const skew = signedAt(input.signature) - Date.now() / 1000;
  if (!(skew <= SIGNATURE_TOLERANCE_SECONDS)) {
    ctx.log.warn({ aheadSeconds: Math.round(skew) }, 'payment event refused: its signature is dated in the future');
    throw invalidSignature();
  }
  if (!(HANDLED_EVENTS as readonly string[]).includes(event.type)) return { received: true };
  if (!(await repo.recordEvent(ctx.db, { id: event.id, type: event.type }))) {
    ctx.log.info({ eventId: event.id, type: event.type }, 'payment event already handled');
    return { received: true };
  }
  try {
    // the provider unreachable while reading: 502, and the provider delivers the event again
    await viaProvider(() => handleEvent(ctx, actor, event));
  } catch (error) {
    await repo.forgetEvent(ctx.db, event.id);
    throw error;
  }
  return { received: true };
}

async function handleEvent(
  ctx: AppContext,
  actor: Actor,
  event: { id: string; type: string; data: { object: unknown } },
): Promise<void> {
  const object = (event.data.object ?? {}) as Record<string, unknown>;
  const providerCustomerId = providerCustomerOf(object);
  const customerId = providerCustomerId ? await repo.customerOfProviderCustomer(ctx.db, providerCustomerId) : null;
  if (customerId === null) {
    // another application's customer on the same account, or one this portal never made
    ctx.log.info({ eventId: event.id, type: event.type, providerCustomerId }, 'payment event for no customer here');
    return;
  }
  if (event.type === 'checkout.session.completed' && typeof object.id === 'string') {
    await repo.setPaymentStatus(ctx.db, object.id, 'complete');
  }
  await syncSubscription(ctx, actor, { customerId });
}

/**
 * An event of the built-in test checkout (its job): signed with the test checkout's secret as Stripe
 * signs, and handed to the same code as Stripe's events, signature check included.
 */
export async function deliverTestCheckoutEvent(ctx: AppContext, payload: { event: StripeShapedEvent }) {
  if (!isBuiltinPayments(ctx.payments)) {
    ctx.log.warn({ eventId: payload.event.id }, 'a test checkout event is dropped: Stripe takes the payments now');
    return;
  }
  const body = JSON.stringify(payload.event);
  const Stripe = await loadStripe();
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: await ctx.payments.webhookSecret(),
  });
  await receiveProviderEvent(ctx, integrationActor('stripe'), { payload: Buffer.from(body), signature });
}
