import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  entriesOf,
  postEvent,
  selfServiceCustomer,
  signedEvent,
  stripeEvent,
  subscriptionOf,
} from '../../test/billing';
import { signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { PEER_WEBHOOK_SECRET, type PeerSubscription, StripePeer } from '../../test/stripe-peer';

/**
 * `POST /api/stripe/webhooks` with Stripe (a local peer plays Stripe): signatures checked with
 * Stripe's tolerance, each event handled once, and events that come twice, late or out of order
 * leave the subscription as Stripe has it.
 */

let t: TestApp;
const peer = new StripePeer();

beforeAll(async () => {
  await peer.listen();
  t = await createTestApp(peer.env());
});
afterAll(async () => {
  await t?.close();
  await peer.close();
});

/** A customer who went through Stripe Checkout: its Stripe customer, session and (once paid) subscription. */
async function checkedOut(options: { paid: boolean }) {
  const customer = await selfServiceCustomer(t.app.ctx.db);
  const owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
  const started = await request(t.app, owner.cookie, {
    method: 'POST',
    url: '/api/signup/payment',
    payload: { customerId: customer.id },
  });
  expect(started.statusCode, started.body).toBe(200);
  const session = [...peer.sessions.values()].at(-1)!;
  const stripeCustomer = String(session.customer);
  const subscription = options.paid ? peer.complete(String(session.id)) : null;
  return { customer, owner, session, stripeCustomer, subscription: subscription as PeerSubscription };
}

const post = (event: object, secret = PEER_WEBHOOK_SECRET, timestamp?: number) =>
  postEvent(t.app, event, secret, timestamp);
const statusOf = async (customerId: number) => (await subscriptionOf(t.app.ctx.db, customerId)).status;
const seenEvents = () => t.app.ctx.db.selectFrom('billingEvents').selectAll().execute();

describe('signatures', () => {
  it('refuses a forged, unsigned, stale or altered event with 400 and changes nothing', async () => {
    const { customer, stripeCustomer } = await checkedOut({ paid: true });
    const event = stripeEvent('invoice.paid', { object: 'invoice', customer: stripeCustomer });
    const before = (await seenEvents()).length;

    const forged = await post(event, 'whsec_someone_else');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toEqual({
      code: 'validation_error',
      message: 'The event signature is not valid or is too old',
    });

    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhooks',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(400);

    // Stripe's tolerance is five minutes, in the past and in the future alike
    const stale = await post(event, PEER_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 6 * 60);
    expect(stale.statusCode).toBe(400);
    const ahead = await post(event, PEER_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) + 10 * 60);
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json().error.message).toBe('The event signature is not valid or is too old');
    const justAhead = await post(event, PEER_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) + 6 * 60);
    expect(justAhead.statusCode).toBe(400);

    const { headers } = signedEvent(event, PEER_WEBHOOK_SECRET);
    const altered = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/webhooks',
      headers,
      payload: JSON.stringify({ ...event, type: 'customer.subscription.deleted' }),
    });
    expect(altered.statusCode).toBe(400);

    expect(await seenEvents()).toHaveLength(before);
    expect(await statusOf(customer.id)).toBe('initiated');
  });

  it('accepts an event signed a little while ago, from any origin', async () => {
    const { customer, stripeCustomer } = await checkedOut({ paid: true });
    const event = stripeEvent('invoice.paid', { object: 'invoice', customer: stripeCustomer });
    const response = await post(event, PEER_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 4 * 60);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(await statusOf(customer.id)).toBe('paid');
  });

  it('accepts an event signed by a clock a little ahead of the portal', async () => {
    const { customer, stripeCustomer } = await checkedOut({ paid: true });
    const event = stripeEvent('invoice.paid', { object: 'invoice', customer: stripeCustomer });
    const response = await post(event, PEER_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) + 4 * 60);
    expect(response.statusCode, response.body).toBe(200);
    expect(await statusOf(customer.id)).toBe('paid');
  });
});

describe('each event once', () => {
  it('answers a duplicate 200 and changes nothing, even if Stripe moved on since', async () => {
    const { customer, stripeCustomer, subscription } = await checkedOut({ paid: true });
    const event = stripeEvent('checkout.session.completed', {
      object: 'checkout.session',
      id: 'cs_any',
      customer: stripeCustomer,
    });
    expect((await post(event)).statusCode).toBe(200);
    expect(await statusOf(customer.id)).toBe('paid');
    const audited = (await entriesOf(t.app.ctx.db, customer.id, 'updatePaymentStatus')).length;

    peer.update(subscription.id, { status: 'past_due' });
    const again = await post(event);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true });
    expect(await statusOf(customer.id)).toBe('paid');
    expect(await entriesOf(t.app.ctx.db, customer.id, 'updatePaymentStatus')).toHaveLength(audited);
    expect((await seenEvents()).filter((e) => e.id === event.id)).toHaveLength(1);
  });

  it('forgets an event it failed to handle, so that Stripe’s next delivery of it is handled', async () => {
    const { customer, stripeCustomer } = await checkedOut({ paid: true });
    const event = stripeEvent('invoice.paid', { object: 'invoice', customer: stripeCustomer });
    peer.failNext(/^\/v1\/subscriptions$/, 400, 'Try again', 'invalid_request_error');
    const failed = await post(event);
    expect(failed.statusCode).toBe(502);
    expect((await seenEvents()).some((e) => e.id === event.id)).toBe(false);
    expect(await statusOf(customer.id)).toBe('initiated');

    expect((await post(event)).statusCode).toBe(200);
    expect(await statusOf(customer.id)).toBe('paid');
  });

  it('acknowledges events it does not handle, and events about customers it does not know', async () => {
    const other = await post(stripeEvent('charge.refunded', { object: 'charge', customer: 'cus_whatever' }));
    expect(other.statusCode).toBe(200);
    const stranger = await post(stripeEvent('invoice.paid', { object: 'invoice', customer: 'cus_not_ours' }));
    expect(stranger.statusCode).toBe(200);
  });
});

describe('order does not matter: every event reads the subscription again', () => {
  it('follows Stripe, not the content of an event that comes late', async () => {
    const { customer, owner, session, stripeCustomer, subscription } = await checkedOut({ paid: true });
    expect((await post(stripeEvent('invoice.paid', { customer: stripeCustomer }))).statusCode).toBe(200);
    expect(await statusOf(customer.id)).toBe('paid');
    // the subscription's events, newest first, before the checkout's
    peer.update(subscription.id, { status: 'past_due' });
    const updated = stripeEvent('customer.subscription.updated', { ...subscription, status: 'past_due' });
    const failed = stripeEvent('invoice.payment_failed', { object: 'invoice', customer: stripeCustomer });
    const completed = stripeEvent('checkout.session.completed', { ...session, status: 'complete' });
    // a paid customer whose payment failed: grace; the earlier events arriving late change nothing
    expect((await post(stripeEvent('invoice.updated', { customer: stripeCustomer }))).statusCode).toBe(200);
    expect(await statusOf(customer.id)).toBe('paid');
    expect((await post(stripeEvent('invoice.payment_failed', { customer: stripeCustomer }))).statusCode).toBe(200);
    expect(await statusOf(customer.id)).toBe('grace');
    for (const event of [updated, failed, completed]) expect((await post(event)).statusCode).toBe(200);
    expect(await statusOf(customer.id)).toBe('grace');
    // the checkout's own record says it is complete
    const payment = await t.app.ctx.db
      .selectFrom('payments')
      .select('status')
      .where('providerSessionId', '=', String(session.id))
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe('complete');

    // the card works again: an old event is reason enough to look
    peer.update(subscription.id, { status: 'active' });
    expect((await post(stripeEvent('invoice.payment_action_required', { customer: stripeCustomer }))).statusCode).toBe(
      200,
    );
    expect(await statusOf(customer.id)).toBe('paid');
    const page = await request(t.app, owner.cookie, { method: 'GET', url: `/api/customers/${customer.id}` });
    expect(page.json().paymentStatus).toBe('paid');
  });

  it('ends with the subscription to be cancelled, then cancelled, audited as Stripe’s doing', async () => {
    const { customer, stripeCustomer, subscription } = await checkedOut({ paid: true });
    peer.update(subscription.id, { cancel_at_period_end: true });
    await post(stripeEvent('customer.subscription.updated', { ...subscription, customer: stripeCustomer }));
    expect(await statusOf(customer.id)).toBe('toBeCanceled');
    peer.update(subscription.id, { status: 'canceled' });
    await post(stripeEvent('customer.subscription.deleted', { ...subscription, customer: stripeCustomer }));
    const row = await subscriptionOf(t.app.ctx.db, customer.id);
    expect(row.status).toBe('canceled');
    expect(row.suspendedAt).not.toBeNull();
    const last = (await entriesOf(t.app.ctx.db, customer.id, 'updatePaymentStatus')).at(-1)!;
    expect(last).toMatchObject({ actorKind: 'integration', actorName: 'stripe', actorId: null });
    expect(JSON.parse(last.data)).toEqual({ from: 'toBeCanceled', to: 'canceled', providerStatus: 'canceled' });
  });

  it('records a renewal: a new period of a running subscription', async () => {
    const { customer, stripeCustomer, subscription } = await checkedOut({ paid: true });
    await post(stripeEvent('invoice.paid', { customer: stripeCustomer }));
    const next = Math.floor(Date.now() / 1000) + 60 * 24 * 60 * 60;
    peer.update(subscription.id, { current_period_end: next });
    await post(stripeEvent('invoice.paid', { customer: stripeCustomer }));
    expect((await subscriptionOf(t.app.ctx.db, customer.id)).currentPeriodEnd).toBe(
      new Date(next * 1000).toISOString(),
    );
    const renewals = await entriesOf(t.app.ctx.db, customer.id, 'renewSubscription');
    expect(renewals.map((e) => JSON.parse(e.data))).toEqual([
      { currentPeriodEnd: new Date(next * 1000).toISOString() },
    ]);
  });

  it('never lets a stray trial send a paying customer back: the state machine refuses the move', async () => {
    const { customer, stripeCustomer, subscription } = await checkedOut({ paid: true });
    await post(stripeEvent('invoice.paid', { customer: stripeCustomer }));
    peer.update(subscription.id, { status: 'trialing' });
    await post(stripeEvent('customer.subscription.trial_will_end', { customer: stripeCustomer }));
    expect(await statusOf(customer.id)).toBe('paid');
  });
});
