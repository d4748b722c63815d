import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CHECKOUT_EVENT_JOB } from '../../integrations/payments';
import { postEvent, selfServiceCustomer, stripeEvent, subscriptionOf } from '../../test/billing';
import { signedIn } from '../../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../../test/harness';
import { unsealWebhookSecret } from '../webhooks/secrets';

/**
 * The built-in test checkout (no Stripe keys): its pages, what a tester does there, and the signed
 * Stripe-shaped events that reach the webhook code.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function payer(locale: 'en' | 'fr' = 'en') {
  const customer = await selfServiceCustomer(t.app.ctx.db, { status: 'trial' });
  const owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
  if (locale !== 'en') {
    await request(t.app, owner.cookie, { method: 'PATCH', url: '/api/auth/me', payload: { preferredLocale: locale } });
  }
  return { customer, owner };
}

const sessionIdOf = (url: string) => decodeURIComponent(url.split('/').at(-1)!);

async function checkout(cookie: string, customerId: number): Promise<string> {
  const response = await request(t.app, cookie, {
    method: 'POST',
    url: '/api/signup/payment',
    payload: { customerId },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().url;
}

const view = (cookie: string, id: string) => request(t.app, cookie, { method: 'GET', url: `/api/test-checkout/${id}` });
const act = (cookie: string, id: string, action: string) =>
  request(t.app, cookie, { method: 'POST', url: `/api/test-checkout/${id}`, payload: { action } });
const events = async () => {
  const jobs = await t.app.ctx.jobs.counts();
  return jobs.filter((job) => job.name === TEST_CHECKOUT_EVENT_JOB).reduce((n, job) => n + job.count, 0);
};

describe('a checkout of the built-in test checkout', () => {
  it('is a page of the portal in the payer’s language, showing the price and the customer', async () => {
    const { customer, owner } = await payer('fr');
    const url = await checkout(owner.cookie, customer.id);
    expect(url).toMatch(new RegExp(`^${BASE_URL}/fr/test-checkout/cs_test_[A-Za-z0-9_-]+$`));
    const response = await view(owner.cookie, sessionIdOf(url));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      kind: 'checkout',
      status: 'open',
      customerId: customer.id,
      amountCents: 4900,
      currency: 'eur',
      subscription: null,
    });
    expect((await subscriptionOf(t.app.ctx.db, customer.id)).provider).toBe('builtin');
  });

  it('is paid once: a subscription, and Stripe’s events, signed, through the webhook code', async () => {
    const { customer, owner } = await payer();
    const id = sessionIdOf(await checkout(owner.cookie, customer.id));
    const paid = await act(owner.cookie, id, 'pay');
    expect(paid.statusCode, paid.body).toBe(200);
    const success = `${BASE_URL}/en/accounts/${customer.id}?payment=success&session_id=${id}`;
    expect(paid.json()).toEqual({ url: success, declined: false });
    // paying again (a second tab) leads to the same place and pays nothing more
    expect((await act(owner.cookie, id, 'pay')).json()).toEqual({ url: success, declined: false });
    expect(await events()).toBe(3);

    // the events are jobs, like Stripe's deliveries: until they run, the trial stands
    expect((await subscriptionOf(t.app.ctx.db, customer.id)).status).toBe('trial');
    await t.app.ctx.jobs.drain();
    const row = await subscriptionOf(t.app.ctx.db, customer.id);
    expect(row.status).toBe('paid');
    expect(row.providerSubscriptionId).toMatch(/^sub_test_/);
    const seen = await t.app.ctx.db.selectFrom('billingEvents').select('type').execute();
    expect(seen.map((e) => e.type)).toEqual(expect.arrayContaining(['checkout.session.completed', 'invoice.paid']));
    const payment = await t.app.ctx.db
      .selectFrom('payments')
      .select('status')
      .where('providerSessionId', '=', id)
      .executeTakeFirstOrThrow();
    expect(payment.status).toBe('complete');

    // the way back verifies the session as with Stripe
    const verified = await request(t.app, owner.cookie, { method: 'GET', url: `/api/stripe/verify-session/${id}` });
    expect(verified.json()).toEqual({ sessionId: id, checkoutStatus: 'complete', paymentStatus: 'paid' });
  });

  it('declines a card without creating anything, and goes back when abandoned', async () => {
    const { customer, owner } = await payer();
    const id = sessionIdOf(await checkout(owner.cookie, customer.id));
    const before = await events();
    expect((await act(owner.cookie, id, 'decline')).json()).toEqual({ url: null, declined: true });
    expect((await view(owner.cookie, id)).json().status).toBe('open');
    expect((await act(owner.cookie, id, 'abandon')).json()).toEqual({
      url: `${BASE_URL}/en/accounts/${customer.id}`,
      declined: false,
    });
    expect((await view(owner.cookie, id)).json().status).toBe('expired');
    expect(await events()).toBe(before);
    const verified = await request(t.app, owner.cookie, { method: 'GET', url: `/api/stripe/verify-session/${id}` });
    expect(verified.json()).toMatchObject({ checkoutStatus: 'expired', paymentStatus: 'trial' });
  });

  it('refuses an action of another page (400) and the pages of another customer (404)', async () => {
    const { customer, owner } = await payer();
    const id = sessionIdOf(await checkout(owner.cookie, customer.id));
    const wrong = await act(owner.cookie, id, 'renewalFailed');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details).toEqual([{ path: 'action', message: 'billing.errors.action' }]);
    const stranger = await payer();
    expect((await view(stranger.owner.cookie, id)).statusCode).toBe(404);
    expect((await act(stranger.owner.cookie, id, 'pay')).statusCode).toBe(404);
    expect((await view(owner.cookie, 'cs_test_nothing')).statusCode).toBe(404);
  });

  it('is for those who pay; the billing portal also for the account executive', async () => {
    const { customer, owner } = await payer();
    const executive = await signedIn(t.app, 'accountExecutive', { id: customer.id, role: 'accountExecutive' });
    const id = sessionIdOf(await checkout(owner.cookie, customer.id));
    expect((await view(executive.cookie, id)).statusCode).toBe(403);
    await act(owner.cookie, id, 'pay');
    await t.app.ctx.jobs.drain();
    const portal = await request(t.app, executive.cookie, {
      method: 'POST',
      url: '/api/stripe/billing-portal-session',
      payload: { customerId: customer.id },
    });
    expect(portal.statusCode).toBe(200);
    const page = await view(executive.cookie, sessionIdOf(portal.json().url));
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ kind: 'portal', subscription: { status: 'active', cancelAtPeriodEnd: false } });
  });
});

describe('the billing portal of the built-in test checkout', () => {
  it('plays the subscription’s later life: cancelled at the period’s end, resumed, renewed, cancelled', async () => {
    const { customer, owner } = await payer();
    const id = sessionIdOf(await checkout(owner.cookie, customer.id));
    await act(owner.cookie, id, 'pay');
    await t.app.ctx.jobs.drain();
    const portal = (
      await request(t.app, owner.cookie, {
        method: 'POST',
        url: '/api/stripe/billing-portal-session',
        payload: { customerId: customer.id },
      })
    ).json().url;
    const portalId = sessionIdOf(portal);
    const status = async () => {
      await t.app.ctx.jobs.drain();
      return (await subscriptionOf(t.app.ctx.db, customer.id)).status;
    };

    expect((await act(owner.cookie, portalId, 'cancelAtPeriodEnd')).json()).toEqual({ url: null, declined: false });
    expect(await status()).toBe('toBeCanceled');
    await act(owner.cookie, portalId, 'resume');
    expect(await status()).toBe('paid');
    const end = (await subscriptionOf(t.app.ctx.db, customer.id)).currentPeriodEnd!;
    await act(owner.cookie, portalId, 'renewalPaid');
    expect(await status()).toBe('paid');
    expect(Date.parse((await subscriptionOf(t.app.ctx.db, customer.id)).currentPeriodEnd!)).toBeGreaterThan(
      Date.parse(end),
    );
    await act(owner.cookie, portalId, 'cancelNow');
    expect(await status()).toBe('canceled');
    expect((await act(owner.cookie, portalId, 'back')).json().url).toBe(`${BASE_URL}/en/accounts/${customer.id}`);
    // a cancelled customer may subscribe again
    const again = await request(t.app, owner.cookie, {
      method: 'POST',
      url: '/api/signup/payment',
      payload: { customerId: customer.id },
    });
    expect(again.statusCode).toBe(200);
    expect((await subscriptionOf(t.app.ctx.db, customer.id)).status).toBe('initiated');
  });
});

describe("the test checkout's signing secret", () => {
  it('is generated once and kept sealed when none is configured', async () => {
    const secret = await t.app.ctx.payments.webhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(await t.app.ctx.payments.webhookSecret()).toBe(secret);
    const rows = await t.app.ctx.db.selectFrom('testCheckoutSecrets').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].secretSealed).not.toContain(secret.slice(6));
    expect(unsealWebhookSecret(t.config.sessionSecret, rows[0].secretSealed)).toBe(secret);
  });

  it('is STRIPE_WEBHOOK_SECRET when it is set alone, so a test signs events of its own', async () => {
    const secret = 'whsec_my_own_test_secret';
    const own = await createTestApp({ STRIPE_WEBHOOK_SECRET: secret });
    try {
      expect(own.app.ctx.payments.name).toBe('builtin');
      expect(await own.app.ctx.payments.webhookSecret()).toBe(secret);
      const customer = await selfServiceCustomer(own.app.ctx.db, { status: 'trial' });
      const owner = await signedIn(own.app, 'client', { id: customer.id, role: 'businessOwner' });
      const url = (
        await request(own.app, owner.cookie, {
          method: 'POST',
          url: '/api/signup/payment',
          payload: { customerId: customer.id },
        })
      ).json().url;
      await request(own.app, owner.cookie, {
        method: 'POST',
        url: `/api/test-checkout/${sessionIdOf(url)}`,
        payload: { action: 'pay' },
      });
      // the test's own event, not the checkout's (still queued), makes the portal look
      const providerCustomer = (await subscriptionOf(own.app.ctx.db, customer.id)).providerCustomerId!;
      const event = stripeEvent('invoice.paid', { object: 'invoice', customer: providerCustomer });
      expect((await postEvent(own.app, event, 'whsec_not_it')).statusCode).toBe(400);
      expect((await postEvent(own.app, event, secret)).statusCode).toBe(200);
      expect((await subscriptionOf(own.app.ctx.db, customer.id)).status).toBe('paid');
      expect(await own.app.ctx.db.selectFrom('testCheckoutSecrets').selectAll().execute()).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
