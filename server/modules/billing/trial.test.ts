import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionOf } from '../../test/billing';
import { jobActor } from '../../actor';
import { signedIn } from '../../test/factories';
import { createInstance } from '../../test/instances';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { endTrial, TRIAL_END_JOB } from './trial';

/** A self-service customer's free trial: its end is known from the start, and an unpaid trial ends. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PAYMENT_TRIAL_DAYS: '10' });
});
afterAll(async () => t?.close());

const DAY_MS = 86_400_000;
const job = jobActor(TRIAL_END_JOB);

async function newTrial() {
  const admin = await signedIn(t.app, 'admin');
  const created = await request(t.app, admin.cookie, {
    method: 'POST',
    url: '/api/customers',
    payload: { name: `Trial ${Math.random().toString(36).slice(2, 8)}`, selfService: true },
  });
  expect(created.statusCode, created.body).toBe(201);
  const customerId: number = created.json().id;
  return { customerId, admin };
}

describe('a free trial', () => {
  it('ends PAYMENT_TRIAL_DAYS after it starts, which the subscription answer says, and its end is queued', async () => {
    const before = Date.now();
    const { customerId, admin } = await newTrial();
    const row = await subscriptionOf(t.app.ctx.db, customerId);
    expect(row.status).toBe('trial');
    const end = Date.parse(row.currentPeriodEnd!);
    expect(end - before).toBeGreaterThanOrEqual(10 * DAY_MS - 1000);
    expect(end - Date.now()).toBeLessThanOrEqual(10 * DAY_MS);
    const answer = await request(t.app, admin.cookie, {
      method: 'GET',
      url: `/api/customers/${customerId}/subscription`,
    });
    expect(answer.json()).toMatchObject({ status: 'trial', currentPeriodEnd: row.currentPeriodEnd });
    const queued = (await t.app.ctx.jobs.counts()).filter((counted) => counted.name === TRIAL_END_JOB);
    expect(queued.reduce((n, counted) => n + counted.count, 0)).toBeGreaterThanOrEqual(1);
  });

  it('cancels a trial still unpaid at its end and suspends the service; leaves a paid one alone', async () => {
    const { customerId } = await newTrial();
    const instance = await createInstance(t.app.ctx.db, customerId, 'provisioned');
    const row = await subscriptionOf(t.app.ctx.db, customerId);
    // another trial end (a former one) changes nothing
    await endTrial(t.app.ctx, job, { customerId, trialEnd: new Date(0).toISOString() });
    expect((await subscriptionOf(t.app.ctx.db, customerId)).status).toBe('trial');
    await endTrial(t.app.ctx, job, { customerId, trialEnd: row.currentPeriodEnd! });
    const after = await subscriptionOf(t.app.ctx.db, customerId);
    expect(after.status).toBe('canceled');
    expect(after.suspendedAt).not.toBeNull();
    const archived = await t.app.ctx.db
      .selectFrom('cloudInstances')
      .select('status')
      .where('id', '=', instance)
      .executeTakeFirstOrThrow();
    expect(archived.status).toBe('archived');

    const paid = await newTrial();
    const paidRow = await subscriptionOf(t.app.ctx.db, paid.customerId);
    await t.app.ctx.db
      .updateTable('subscriptions')
      .set({ status: 'paid' })
      .where('customerId', '=', paid.customerId)
      .execute();
    await endTrial(t.app.ctx, job, { customerId: paid.customerId, trialEnd: paidRow.currentPeriodEnd! });
    expect((await subscriptionOf(t.app.ctx.db, paid.customerId)).status).toBe('paid');
  });
});
