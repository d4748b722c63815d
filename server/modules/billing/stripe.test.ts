import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PaymentStatus } from '../../../common/domain';
import { entriesOf, selfServiceCustomer, subscriptionOf } from '../../test/billing';
import { createCustomer, signedIn } from '../../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../../test/harness';
import { PEER_PRICE_ID, StripePeer } from '../../test/stripe-peer';

/**
 * The checkout, the way back from it and the provider's pages, with Stripe: the stripe client talks to
 * a local peer that speaks Stripe's wire protocol (server/test/stripe-peer.ts).
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
beforeEach(() => {
  peer.requests.length = 0;
});

/** A self-service customer (no subscription yet unless a status is given) and its project manager. */
async function payer(status?: PaymentStatus) {
  const customer = await selfServiceCustomer(t.app.ctx.db, status ? { status, provider: 'stripe' } : {});
  const owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
  return { customer, owner };
}

const pay = (cookie: string, customerId: number) =>
  request(t.app, cookie, { method: 'POST', url: '/api/signup/payment', payload: { customerId } });
const verify = (cookie: string, sessionId: string) =>
  request(t.app, cookie, { method: 'GET', url: `/api/stripe/verify-session/${sessionId}` });

describe('POST /api/signup/payment with Stripe', () => {
  it('opens Stripe Checkout for the subscription’s price, for a Stripe customer made once, and leads back to the customer page', async () => {
    const { customer, owner } = await payer();
    const response = await pay(owner.cookie, customer.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\//);

    const [created, checkout] = peer.requests;
    expect(created).toMatchObject({
      method: 'POST',
      path: '/v1/customers',
      params: { email: owner.email, metadata: { customerId: String(customer.id) } },
      idempotencyKey: `portal-customer-${customer.id}`,
    });
    const stripeCustomer = [...peer.customers.keys()].at(-1)!;
    expect(checkout).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      params: {
        mode: 'subscription',
        customer: stripeCustomer,
        line_items: [{ price: PEER_PRICE_ID, quantity: '1' }],
        client_reference_id: String(customer.id),
        subscription_data: { metadata: { customerId: String(customer.id) } },
        success_url: `${BASE_URL}/en/accounts/${customer.id}?payment=success&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${BASE_URL}/en/accounts/${customer.id}`,
        locale: 'en',
      },
    });

    const subscription = await subscriptionOf(t.app.ctx.db, customer.id);
    expect(subscription).toMatchObject({ status: 'initiated', provider: 'stripe', providerCustomerId: stripeCustomer });
    const [session] = [...peer.sessions.values()].slice(-1);
    const payment = await t.app.ctx.db
      .selectFrom('payments')
      .selectAll()
      .where('customerId', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      providerSessionId: session.id,
      status: 'open',
      amountCents: 4900,
      currency: 'eur',
    });
    expect(await entriesOf(t.app.ctx.db, customer.id, 'startCheckout')).toEqual([
      expect.objectContaining({ actorKind: 'user', actorEmail: owner.email }),
    ]);

    // a second checkout is for the same Stripe customer
    peer.requests.length = 0;
    expect((await pay(owner.cookie, customer.id)).statusCode).toBe(200);
    expect(peer.requests.map((r) => r.path)).toEqual(['/v1/checkout/sessions']);
    expect(peer.requests[0].params.customer).toBe(stripeCustomer);
  });

  it('lets a customer in trial subscribe and keeps the trial until Stripe says it is paid', async () => {
    const { customer, owner } = await payer('trial');
    expect((await pay(owner.cookie, customer.id)).statusCode).toBe(200);
    expect((await subscriptionOf(t.app.ctx.db, customer.id)).status).toBe('trial');
  });

  it('refuses a sales-led customer and a subscription that runs or owes a payment (409)', async () => {
    const salesLed = await createCustomer(t.app.ctx.db);
    const admin = await signedIn(t.app, 'admin');
    const refused = await pay(admin.cookie, salesLed.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('not_self_service');
    for (const status of ['paid', 'grace', 'pastDue', 'unpaid', 'toBeCanceled', 'processing'] as const) {
      const { customer, owner } = await payer(status);
      const response = await pay(owner.cookie, customer.id);
      expect(response.statusCode, status).toBe(409);
      expect(response.json().error.code, status).toBe('subscription_running');
    }
    expect(peer.requests).toEqual([]);
  });

  it('answers 502 when Stripe refuses, and records no checkout', async () => {
    const { customer, owner } = await payer();
    peer.failNext(/^\/v1\/checkout\/sessions$/, 400, 'No such price', 'invalid_request_error');
    const response = await pay(owner.cookie, customer.id);
    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('payment_provider_error');
    const payments = await t.app.ctx.db
      .selectFrom('payments')
      .where('customerId', '=', customer.id)
      .selectAll()
      .execute();
    expect(payments).toEqual([]);
    expect(await entriesOf(t.app.ctx.db, customer.id, 'startCheckout')).toEqual([]);
  });
});

describe('GET /api/stripe/verify-session/{sessionId} with Stripe', () => {
  it('reads the session from Stripe; once paid, the subscription with its period from its item', async () => {
    const { customer, owner } = await payer();
    await pay(owner.cookie, customer.id);
    const [session] = [...peer.sessions.values()].slice(-1);
    const sessionId = String(session.id);

    const open = await verify(owner.cookie, sessionId);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toEqual({ sessionId, checkoutStatus: 'open', paymentStatus: 'initiated' });

    const subscription = peer.complete(sessionId);
    const done = await verify(owner.cookie, sessionId);
    expect(done.json()).toEqual({ sessionId, checkoutStatus: 'complete', paymentStatus: 'paid' });
    const row = await subscriptionOf(t.app.ctx.db, customer.id);
    const item = subscription.items.data[0] as { current_period_end: number };
    expect(row).toMatchObject({
      status: 'paid',
      providerSubscriptionId: subscription.id,
      currentPeriodEnd: new Date(item.current_period_end * 1000).toISOString(),
    });
    const payment = await t.app.ctx.db
      .selectFrom('payments')
      .select('status')
      .where('providerSessionId', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe('complete');
    expect((await entriesOf(t.app.ctx.db, customer.id, 'updatePaymentStatus')).map((e) => JSON.parse(e.data))).toEqual([
      { from: null, to: 'initiated', providerStatus: null },
      { from: 'initiated', to: 'paid', providerStatus: 'active' },
    ]);

    // again: nothing left to change
    expect((await verify(owner.cookie, sessionId)).json().paymentStatus).toBe('paid');
    expect(await entriesOf(t.app.ctx.db, customer.id, 'updatePaymentStatus')).toHaveLength(2);
  });

  it("finds only a checkout of the caller's own customer", async () => {
    const { customer, owner } = await payer();
    await pay(owner.cookie, customer.id);
    const sessionId = String([...peer.sessions.values()].at(-1)!.id);
    const stranger = await payer();
    expect((await verify(stranger.owner.cookie, sessionId)).statusCode).toBe(404);
    expect((await verify(owner.cookie, 'cs_test_unknown')).statusCode).toBe(404);
    expect((await verify(owner.cookie, 'not a session')).statusCode).toBe(404);
  });
});

describe("Stripe's pages: the billing portal and a new card", () => {
  it('open for a customer known to Stripe, back to the customer page in the caller’s language', async () => {
    const { customer, owner } = await payer();
    await request(t.app, owner.cookie, { method: 'PATCH', url: '/api/auth/me', payload: { preferredLocale: 'fr' } });
    await pay(owner.cookie, customer.id);
    const stripeCustomer = (await subscriptionOf(t.app.ctx.db, customer.id)).providerCustomerId;
    peer.requests.length = 0;

    const portal = await request(t.app, owner.cookie, {
      method: 'POST',
      url: '/api/stripe/billing-portal-session',
      payload: { customerId: customer.id },
    });
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().url).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\//);
    expect(peer.requests[0]).toMatchObject({
      path: '/v1/billing_portal/sessions',
      params: { customer: stripeCustomer, return_url: `${BASE_URL}/fr/accounts/${customer.id}`, locale: 'fr' },
    });

    const card = await request(t.app, owner.cookie, {
      method: 'POST',
      url: '/api/stripe/update-payment-method-session',
      payload: { customerId: customer.id },
    });
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json()).toEqual({ stripe: { url: expect.stringMatching(/^https:\/\/billing\.stripe\.test\//) } });
    expect(peer.requests[1].params).toMatchObject({
      customer: stripeCustomer,
      flow_data: { type: 'payment_method_update' },
    });
  });

  it('answer 409 before the first checkout, and 502 when Stripe refuses', async () => {
    const { customer, owner } = await payer('trial');
    for (const url of ['/api/stripe/billing-portal-session', '/api/stripe/update-payment-method-session']) {
      const response = await request(t.app, owner.cookie, {
        method: 'POST',
        url,
        payload: { customerId: customer.id },
      });
      expect(response.statusCode, url).toBe(409);
      expect(response.json().error.code, url).toBe('no_subscription');
    }
    await pay(owner.cookie, customer.id);
    peer.failNext(/^\/v1\/billing_portal\/sessions$/, 400, 'No configuration', 'invalid_request_error');
    const failed = await request(t.app, owner.cookie, {
      method: 'POST',
      url: '/api/stripe/billing-portal-session',
      payload: { customerId: customer.id },
    });
    expect(failed.statusCode).toBe(502);
  });
});
