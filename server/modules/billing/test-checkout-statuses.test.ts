import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentStatus } from '../../../common/domain';
import { selfServiceCustomer, subscriptionOf } from '../../test/billing';
import { signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

/**
 * Every payment status of spec section 4 can be reached through the built-in test checkout
 * (docs/billing.md): `processing` by a slow payment, then paid or back to initiated; `unpaid` when
 * every retry of a failed renewal fails; `pastDue` when the grace ends unpaid.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const sessionIdOf = (url: string) => decodeURIComponent(url.split('/').at(-1)!);
const act = (cookie: string, id: string, action: string) =>
  request(t.app, cookie, { method: 'POST', url: `/api/test-checkout/${id}`, payload: { action } });
const view = (cookie: string, id: string) => request(t.app, cookie, { method: 'GET', url: `/api/test-checkout/${id}` });

async function payer(status?: PaymentStatus) {
  const customer = await selfServiceCustomer(t.app.ctx.db, status ? { status } : {});
  const owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
  const open = async (url: string) => {
    const response = await request(t.app, owner.cookie, { method: 'POST', url, payload: { customerId: customer.id } });
    expect(response.statusCode, response.body).toBe(200);
    return sessionIdOf(response.json().url);
  };
  const statusNow = async () => {
    await t.app.ctx.jobs.drain();
    return (await subscriptionOf(t.app.ctx.db, customer.id)).status;
  };
  return { customer, owner, open, statusNow };
}

describe('a slow payment of the test checkout', () => {
  it('leaves the customer processing until it goes through', async () => {
    const { owner, open, statusNow } = await payer();
    const id = await open('/api/signup/payment');
    expect(await statusNow()).toBe('initiated');
    const paid = await act(owner.cookie, id, 'payProcessing');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().url).toMatch(/payment=success/);
    expect(await statusNow()).toBe('processing');
    expect((await view(owner.cookie, id)).json()).toMatchObject({
      status: 'complete',
      subscription: { status: 'incomplete' },
    });
    // a second click pays nothing more
    expect((await act(owner.cookie, id, 'pay')).json().url).toMatch(/payment=success/);
    await act(owner.cookie, id, 'paymentClears');
    expect(await statusNow()).toBe('paid');
    expect((await view(owner.cookie, id)).json().subscription.status).toBe('active');
    // once through, it cannot fail any more
    await act(owner.cookie, id, 'paymentFails');
    expect(await statusNow()).toBe('paid');
  });

  it('sends the customer back to a new checkout when it fails', async () => {
    const { owner, open, statusNow } = await payer();
    const id = await open('/api/signup/payment');
    await act(owner.cookie, id, 'payProcessing');
    expect(await statusNow()).toBe('processing');
    await act(owner.cookie, id, 'paymentFails');
    expect(await statusNow()).toBe('initiated');
    expect((await view(owner.cookie, id)).json().subscription.status).toBe('incomplete_expired');
  });
});

describe('a failed renewal on the test billing portal', () => {
  async function inGrace() {
    const context = await payer('trial');
    const checkout = await context.open('/api/signup/payment');
    await act(context.owner.cookie, checkout, 'pay');
    expect(await context.statusNow()).toBe('paid');
    const portal = await context.open('/api/stripe/billing-portal-session');
    await act(context.owner.cookie, portal, 'renewalFailed');
    expect(await context.statusNow()).toBe('grace');
    return { ...context, portal };
  }

  it('becomes unpaid when every retry fails, after which no grace is left to end', async () => {
    const { owner, portal, statusNow } = await inGrace();
    expect((await act(owner.cookie, portal, 'retriesFail')).json()).toEqual({ url: null, declined: false });
    expect(await statusNow()).toBe('unpaid');
    expect((await view(owner.cookie, portal)).json().subscription.status).toBe('unpaid');
    const late = await act(owner.cookie, portal, 'graceOver');
    expect(late.statusCode).toBe(409);
    expect(await statusNow()).toBe('unpaid');
  });

  it('becomes past due when the grace is ended now, the service suspended', async () => {
    const { customer, owner, portal, statusNow } = await inGrace();
    expect((await act(owner.cookie, portal, 'graceOver')).statusCode).toBe(200);
    expect(await statusNow()).toBe('pastDue');
    expect((await subscriptionOf(t.app.ctx.db, customer.id)).suspendedAt).not.toBeNull();
    // every retry failing then leaves it unpaid
    await act(owner.cookie, portal, 'retriesFail');
    expect(await statusNow()).toBe('unpaid');
  });

  it('does not end a grace that is not running (409)', async () => {
    const { owner, open, statusNow } = await payer('trial');
    await act(owner.cookie, await open('/api/signup/payment'), 'pay');
    expect(await statusNow()).toBe('paid');
    const portal = await open('/api/stripe/billing-portal-session');
    const refused = await act(owner.cookie, portal, 'graceOver');
    expect(refused.statusCode).toBe(409);
    expect(await statusNow()).toBe('paid');
  });
});
