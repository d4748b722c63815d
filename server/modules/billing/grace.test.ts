import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entriesOf, mailsOf, selfServiceCustomer, subscriptionOf } from '../../test/billing';
import { addMembership, createUser, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { createInstance } from '../../test/instances';
import { makeJobsDue } from '../../test/jobs';
import { endGrace, GRACE_END_JOB } from './sync';

/**
 * Grace (docs/billing.md): a failed payment of a running subscription gives the customer
 * PAYMENT_GRACE_DAYS; its start is mailed to the project managers and the account executive in their
 * language; at its end (a job) a customer still unpaid is past due and the service suspended; a payment
 * that comes back restores it. Each step once. Played through the built-in test checkout.
 */

const GRACE_DAYS = 3;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PAYMENT_GRACE_DAYS: String(GRACE_DAYS) });
});
afterAll(async () => t?.close());

const sessionIdOf = (url: string) => decodeURIComponent(url.split('/').at(-1)!);
const post = (cookie: string, url: string, payload: object) => request(t.app, cookie, { method: 'POST', url, payload });

/** A paying self-service customer with its team, and the way to play its subscription's life. */
async function payingCustomer(name: string) {
  const { db } = t.app.ctx;
  const customer = await selfServiceCustomer(db, { status: 'trial' });
  await db.updateTable('customers').set({ name }).where('id', '=', customer.id).execute();
  const owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
  const executive = await createUser(db, { type: 'accountExecutive', preferredLocale: 'fr', fullName: 'Exec Fr' });
  await addMembership(db, executive.id, customer.id, 'accountExecutive');
  const technical = await createUser(db, { type: 'client' });
  await addMembership(db, technical.id, customer.id, 'technicalContact');
  const former = await createUser(db, { type: 'client' });
  await addMembership(db, former.id, customer.id, 'businessOwner', 'disabled');

  const checkout = (await post(owner.cookie, '/api/signup/payment', { customerId: customer.id })).json().url;
  await post(owner.cookie, `/api/test-checkout/${sessionIdOf(checkout)}`, { action: 'pay' });
  await t.app.ctx.jobs.drain();
  expect((await subscriptionOf(db, customer.id)).status).toBe('paid');
  const portal = (await post(owner.cookie, '/api/stripe/billing-portal-session', { customerId: customer.id })).json()
    .url;
  const onPortal = async (action: string) => {
    await post(owner.cookie, `/api/test-checkout/${sessionIdOf(portal)}`, { action });
    await t.app.ctx.jobs.drain();
  };
  const newCard = async () => {
    const page = (
      await post(owner.cookie, '/api/stripe/update-payment-method-session', { customerId: customer.id })
    ).json().stripe.url;
    await post(owner.cookie, `/api/test-checkout/${sessionIdOf(page)}`, { action: 'saveCard' });
    await t.app.ctx.jobs.drain();
  };
  return { customer, owner, executive, technical, former, onPortal, newCard };
}

const row = (customerId: number) => subscriptionOf(t.app.ctx.db, customerId);
const moves = async (customerId: number) =>
  (await entriesOf(t.app.ctx.db, customerId, 'updatePaymentStatus')).map((entry) => {
    const { from, to } = JSON.parse(entry.data) as { from: string; to: string };
    return { from, to, by: entry.actorName ?? entry.actorEmail };
  });

describe('grace after a failed payment', () => {
  it('starts once, for PAYMENT_GRACE_DAYS, mailed to the project managers and the account executive in their language', async () => {
    const { customer, owner, executive, technical, former, onPortal } = await payingCustomer('Grace Ltd');
    const before = Date.now();
    await onPortal('renewalFailed');
    const subscription = await row(customer.id);
    expect(subscription.status).toBe('grace');
    const until = Date.parse(subscription.graceUntil!);
    expect(until).toBeGreaterThanOrEqual(before + GRACE_DAYS * 86_400_000);
    expect(until).toBeLessThan(Date.now() + GRACE_DAYS * 86_400_000 + 1000);

    const mails = (await mailsOf(t.app.ctx, 'paymentGrace')).filter((mail) => mail.subject.includes('Grace Ltd'));
    expect(mails.map((mail) => [mail.toAddress, mail.subject]).sort()).toEqual(
      [
        [owner.email, 'The payment for Grace Ltd failed'],
        [executive.email, 'Le paiement pour Grace Ltd a échoué'],
      ].sort(),
    );
    expect(mails.map((mail) => mail.toAddress)).not.toContain(technical.email);
    expect(mails.map((mail) => mail.toAddress)).not.toContain(former.email);
    expect(mails.find((mail) => mail.toAddress === owner.email)!.textBody).toContain(`in ${GRACE_DAYS} days`);
    expect(mails.find((mail) => mail.toAddress === owner.email)!.textBody).toContain(`/en/accounts/${customer.id}`);

    // the provider's later events about the same failure change nothing: one grace, one mail each
    await onPortal('renewalFailed');
    expect((await row(customer.id)).graceUntil).toBe(subscription.graceUntil);
    expect((await mailsOf(t.app.ctx, 'paymentGrace')).filter((m) => m.subject.includes('Grace Ltd'))).toHaveLength(2);

    // the customer page says how long is left
    const page = await request(t.app, owner.cookie, {
      method: 'GET',
      url: `/api/customers/${customer.id}/subscription`,
    });
    expect(page.json()).toMatchObject({
      status: 'grace',
      graceDaysLeft: GRACE_DAYS,
      suspended: false,
      manageable: true,
    });
  });

  it('ends once: past due, the service suspended (its instance archived), by the grace job; a payment back restores it', async () => {
    const { customer, owner, onPortal, newCard } = await payingCustomer('Late Payer');
    const instanceId = await createInstance(t.app.ctx.db, customer.id, 'provisioned');
    const instance = async () =>
      (
        await t.app.ctx.db
          .selectFrom('cloudInstances')
          .selectAll()
          .where('id', '=', instanceId)
          .executeTakeFirstOrThrow()
      ).status;
    await onPortal('renewalFailed');
    expect(await instance()).toBe('provisioned');
    // not before its time
    await t.app.ctx.jobs.drain();
    expect((await row(customer.id)).status).toBe('grace');

    await makeJobsDue(t.app.ctx.db, GRACE_END_JOB);
    await t.app.ctx.jobs.drain();
    const ended = await row(customer.id);
    expect(ended.status).toBe('pastDue');
    expect(ended.suspendedAt).not.toBeNull();
    expect((await moves(customer.id)).slice(-1)).toEqual([{ from: 'grace', to: 'pastDue', by: GRACE_END_JOB }]);
    expect(await instance()).toBe('archived');
    expect((await mailsOf(t.app.ctx, 'instanceArchived')).filter((m) => m.subject.includes('Late Payer'))).not.toEqual(
      [],
    );

    // a second run of the same end finds nothing to do
    await endGrace(
      t.app.ctx,
      { kind: 'job', name: GRACE_END_JOB },
      { customerId: customer.id, graceUntil: ended.graceUntil! },
    );
    await makeJobsDue(t.app.ctx.db, GRACE_END_JOB);
    await t.app.ctx.jobs.drain();
    expect((await moves(customer.id)).filter((m) => m.to === 'pastDue')).toHaveLength(1);
    expect((await row(customer.id)).suspendedAt).toBe(ended.suspendedAt);

    // a new card pays what is due: the service is back
    await newCard();
    const back = await row(customer.id);
    expect(back).toMatchObject({ status: 'paid', suspendedAt: null, graceUntil: null });
    expect((await moves(customer.id)).slice(-1)).toEqual([{ from: 'pastDue', to: 'paid', by: 'stripe' }]);
    expect(await instance()).toBe('provisioned');

    // the recent actions name who acted (the payment provider, the grace job), none of it "anonymous"
    const recent = await request(t.app, owner.cookie, {
      method: 'GET',
      url: `/api/customers/${customer.id}/logs?pageLength=100`,
    });
    expect(recent.statusCode).toBe(200);
    const authors = (
      recent.json().data as { action: string; actorKind: string; actorName: string | null; actorEmail: string | null }[]
    ).map((entry) => [entry.action, entry.actorKind, entry.actorName, entry.actorEmail]);
    expect(authors).toContainEqual(['updatePaymentStatus', 'integration', 'stripe', null]);
    expect(authors).toContainEqual(['updatePaymentStatus', 'job', GRACE_END_JOB, null]);
    expect(authors).toContainEqual(['archiveInstance', 'job', GRACE_END_JOB, null]);
    expect(authors.filter(([, kind]) => kind === 'anonymous')).toEqual([]);
  });

  it('is over when the payment comes back in time: its end then does nothing', async () => {
    const { customer, onPortal } = await payingCustomer('On Time');
    await onPortal('renewalFailed');
    expect((await row(customer.id)).status).toBe('grace');
    await onPortal('renewalPaid');
    expect(await row(customer.id)).toMatchObject({ status: 'paid', graceUntil: null, suspendedAt: null });
    await makeJobsDue(t.app.ctx.db, GRACE_END_JOB);
    await t.app.ctx.jobs.drain();
    expect((await row(customer.id)).status).toBe('paid');
    expect((await moves(customer.id)).map((m) => m.to)).toEqual(['paid', 'grace', 'paid']);
  });

  it('ends only its own grace: a second failure’s grace is not ended by the first one’s job', async () => {
    const { customer, onPortal } = await payingCustomer('Twice');
    await onPortal('renewalFailed');
    const first = (await row(customer.id)).graceUntil!;
    await onPortal('renewalPaid');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await onPortal('renewalFailed');
    const second = (await row(customer.id)).graceUntil!;
    expect(second).not.toBe(first);
    // the first grace's job, run now, leaves the second grace running
    await endGrace(t.app.ctx, { kind: 'job', name: GRACE_END_JOB }, { customerId: customer.id, graceUntil: first });
    expect((await row(customer.id)).status).toBe('grace');
    await makeJobsDue(t.app.ctx.db, GRACE_END_JOB);
    await t.app.ctx.jobs.drain();
    expect((await row(customer.id)).status).toBe('pastDue');
    expect((await moves(customer.id)).filter((m) => m.to === 'pastDue')).toHaveLength(1);
  });
});
