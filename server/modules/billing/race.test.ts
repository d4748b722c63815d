import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRACE_END_JOB } from './sync';
import { entriesOf, mailsOf, postEvent, selfServiceCustomer, stripeEvent, subscriptionOf } from '../../test/billing';
import { signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { PEER_WEBHOOK_SECRET, StripePeer } from '../../test/stripe-peer';

/**
 * Races (docs/billing.md): the provider's event and the customer's return from the checkout arrive at
 * the same moment, or two events about one failure do; the subscription ends up one and consistent,
 * each move made and audited once. Runs on SQLite and PostgreSQL (its row lock).
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

async function checkedOut() {
  const customer = await selfServiceCustomer(t.app.ctx.db);
  const owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
  await request(t.app, owner.cookie, {
    method: 'POST',
    url: '/api/signup/payment',
    payload: { customerId: customer.id },
  });
  const session = [...peer.sessions.values()].at(-1)!;
  const subscription = peer.complete(String(session.id));
  return { customer, owner, session, subscription, stripeCustomer: String(session.customer) };
}

const ROUNDS = 4;

describe('a webhook and the session verification at the same moment', () => {
  it('make one paid subscription, moved and audited once', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { customer, owner, session, subscription } = await checkedOut();
      const event = stripeEvent('checkout.session.completed', { ...session, status: 'complete' });
      const [webhook, verified] = await Promise.all([
        postEvent(t.app, event, PEER_WEBHOOK_SECRET),
        request(t.app, owner.cookie, { method: 'GET', url: `/api/stripe/verify-session/${String(session.id)}` }),
      ]);
      expect(webhook.statusCode, webhook.body).toBe(200);
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json().paymentStatus).toBe('paid');
      expect(await subscriptionOf(t.app.ctx.db, customer.id)).toMatchObject({
        status: 'paid',
        providerSubscriptionId: subscription.id,
      });
      const moves = (await entriesOf(t.app.ctx.db, customer.id, 'updatePaymentStatus')).map((e) => JSON.parse(e.data));
      expect(moves.map((m: { to: string }) => m.to)).toEqual(['initiated', 'paid']);
    }
  });

  it('and the same event delivered twice at once: handled once', async () => {
    const { customer, session } = await checkedOut();
    const event = stripeEvent('checkout.session.completed', { ...session, status: 'complete' });
    const answers = await Promise.all([1, 2, 3].map(() => postEvent(t.app, event, PEER_WEBHOOK_SECRET)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const seen = await t.app.ctx.db.selectFrom('billingEvents').selectAll().where('id', '=', event.id).execute();
    expect(seen).toHaveLength(1);
    expect((await entriesOf(t.app.ctx.db, customer.id, 'updatePaymentStatus')).length).toBe(2);
  });
});

describe('two events of one failed payment at the same moment', () => {
  it('start one grace: one mail each, one end queued', async () => {
    const { customer, stripeCustomer, subscription } = await checkedOut();
    await postEvent(t.app, stripeEvent('invoice.paid', { customer: stripeCustomer }), PEER_WEBHOOK_SECRET);
    expect((await subscriptionOf(t.app.ctx.db, customer.id)).status).toBe('paid');
    const mailsBefore = (await mailsOf(t.app.ctx, 'paymentGrace')).length;
    const jobsBefore = (await t.app.ctx.jobs.counts())
      .filter((j) => j.name === GRACE_END_JOB)
      .reduce((n, j) => n + j.count, 0);

    peer.update(subscription.id, { status: 'past_due' });
    const answers = await Promise.all([
      postEvent(t.app, stripeEvent('invoice.payment_failed', { customer: stripeCustomer }), PEER_WEBHOOK_SECRET),
      postEvent(t.app, stripeEvent('customer.subscription.updated', { ...subscription }), PEER_WEBHOOK_SECRET),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect((await subscriptionOf(t.app.ctx.db, customer.id)).status).toBe('grace');
    expect((await mailsOf(t.app.ctx, 'paymentGrace')).length - mailsBefore).toBe(1);
    const jobsAfter = (await t.app.ctx.jobs.counts())
      .filter((j) => j.name === GRACE_END_JOB)
      .reduce((n, j) => n + j.count, 0);
    expect(jobsAfter - jobsBefore).toBe(1);
    const moves = (await entriesOf(t.app.ctx.db, customer.id, 'updatePaymentStatus')).map((e) => JSON.parse(e.data).to);
    expect(moves.filter((to: string) => to === 'grace')).toHaveLength(1);
  });
});
