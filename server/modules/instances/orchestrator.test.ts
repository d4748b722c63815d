import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemActor } from '../../actor';
import type { AppContext } from '../../context';
import { createCustomer } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { createInstance } from '../../test/instances';
import { makeJobsDue } from '../../test/jobs';
import { callback, LocalOrchestrator, ORCHESTRATOR_SECRET, signCallback } from '../../test/orchestrator';
import { INSTANCE_ORDER_JOB } from './job-names';
import * as repo from './repo';
import { archiveCustomerInstances, createTrialInstance, restoreCustomerInstances } from './service';

/**
 * The HTTP provisioner against a local orchestrator on 127.0.0.1 (docs/instances.md): signed orders
 * with an idempotency key, retried with backoff while the orchestrator fails; signed callbacks that
 * move the instance, once per event, and refused when forged, stale or out of the lifecycle.
 */

let t: TestApp;
let ctx: AppContext;
const orchestrator = new LocalOrchestrator();

beforeAll(async () => {
  await orchestrator.listen();
  t = await createTestApp({
    INSTANCE_ORCHESTRATOR_URL: orchestrator.url,
    INSTANCE_ORCHESTRATOR_SECRET: ORCHESTRATOR_SECRET,
  });
  ctx = t.app.ctx;
});
afterAll(async () => {
  await t?.close();
  await orchestrator.close();
});
beforeEach(() => {
  orchestrator.orders = [];
  orchestrator.failing = 0;
});

const statusOf = async (id: number) => (await repo.findInstance(ctx.db, id))?.status;
const statusEntries = (instanceId: number) =>
  ctx.db
    .selectFrom('auditLog')
    .select(['action', 'actorKind', 'actorName', 'data'])
    .where('action', '=', 'updateInstanceStatus')
    .where('data', 'like', `%"instanceId":${instanceId},%`)
    .orderBy('id')
    .execute();

async function trialInstance() {
  const customer = await createCustomer(ctx.db, { selfService: true });
  const id = await ctx.db
    .transaction()
    .execute((trx) => createTrialInstance(ctx, trx, systemActor('signup'), { customerId: customer.id }));
  return { customerId: customer.id, id };
}

describe('orders to the orchestrator', () => {
  it('sends a signed create order with its idempotency key and the callback address, and waits for the callbacks', async () => {
    const { id } = await trialInstance();
    await ctx.jobs.drain();
    expect(orchestrator.orders).toHaveLength(1);
    const [order] = orchestrator.orders;
    const instance = (await repo.instanceWithCustomer(ctx.db, id))!;
    expect(order).toMatchObject({
      path: 'POST /orders',
      verified: true,
      userAgent: 'Portal-Provisioner/1',
      idempotencyKey: order.body.id,
      body: {
        command: 'create',
        instance: { id, name: instance.name, tier: 'trial', customerKey: instance.customerKey },
        callbackUrl: 'http://portal.test/api/instances/callback',
      },
    });
    // nothing is simulated: the orchestrator reports by its callbacks
    expect(await statusOf(id)).toBe('creating');
    const provisioning = await callback(t.app, { instanceId: id, status: 'provisioning' });
    expect(provisioning.statusCode, provisioning.body).toBe(200);
    expect(provisioning.json()).toEqual({ applied: true });
    const ready = await callback(t.app, {
      instanceId: id,
      status: 'provisioned',
      url: 'https://acme.cloud.example.net',
    });
    expect(ready.json()).toEqual({ applied: true });
    expect(await repo.findInstance(ctx.db, id)).toMatchObject({
      status: 'provisioned',
      url: 'https://acme.cloud.example.net',
    });
    expect((await statusEntries(id)).map((e) => [e.actorKind, e.actorName])).toEqual([
      ['integration', 'provisioner'],
      ['integration', 'provisioner'],
    ]);
  });

  it('retries an order the orchestrator refuses, with backoff and the same idempotency key', async () => {
    orchestrator.failing = 2;
    const { id } = await trialInstance();
    await ctx.jobs.drain();
    expect(orchestrator.orders).toHaveLength(1);
    // the retry waits for its backoff
    await ctx.jobs.drain();
    expect(orchestrator.orders).toHaveLength(1);
    for (let attempt = 0; attempt < 2; attempt++) {
      await makeJobsDue(ctx.db, INSTANCE_ORDER_JOB);
      await ctx.jobs.drain();
    }
    expect(orchestrator.orders).toHaveLength(3);
    expect(new Set(orchestrator.orders.map((o) => o.idempotencyKey)).size).toBe(1);
    const { items } = await ctx.jobs.failed({ limit: 10, offset: 0, name: INSTANCE_ORDER_JOB });
    expect(items).toEqual([]);
    expect(await statusOf(id)).toBe('creating');
  });

  it('tells the orchestrator to suspend and resume as the grace chain archives and restores', async () => {
    const { customerId, id } = await trialInstance();
    await ctx.jobs.drain();
    await callback(t.app, { instanceId: id, status: 'provisioning' });
    await callback(t.app, { instanceId: id, status: 'provisioned', url: 'https://x.cloud.example.net' });
    const grace = systemActor('grace');
    await ctx.db.transaction().execute((trx) => archiveCustomerInstances(ctx, trx, grace, { customerId }));
    await ctx.jobs.drain();
    await ctx.db.transaction().execute((trx) => restoreCustomerInstances(ctx, trx, grace, { customerId }));
    await ctx.jobs.drain();
    expect(orchestrator.orders.map((o) => o.body.command)).toEqual(['create', 'suspend', 'resume']);
  });

  it('skips an order whose instance moved on before it was sent', async () => {
    const { customerId, id } = await trialInstance();
    await ctx.jobs.drain();
    await callback(t.app, { instanceId: id, status: 'provisioning' });
    await callback(t.app, { instanceId: id, status: 'provisioned', url: 'https://y.cloud.example.net' });
    const grace = systemActor('grace');
    // archived then restored before the suspend order ran: neither order is sent out of turn
    await ctx.db.transaction().execute(async (trx) => {
      await archiveCustomerInstances(ctx, trx, grace, { customerId });
      await restoreCustomerInstances(ctx, trx, grace, { customerId });
    });
    await ctx.jobs.drain();
    expect(orchestrator.orders.map((o) => o.body.command)).toEqual(['create', 'resume']);
  });
});

describe('POST /api/instances/callback', () => {
  it('applies an event once, however often it comes', async () => {
    const id = await createInstance(ctx.db, (await createCustomer(ctx.db)).id, 'creating');
    const body = JSON.stringify({ id: 'evt-once', instanceId: id, status: 'provisioning' });
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/instances/callback',
        headers: { 'content-type': 'application/json', 'portal-signature': signCallback(body) },
        payload: body,
      });
    expect((await send()).json()).toEqual({ applied: true });
    expect((await send()).json()).toEqual({ applied: false });
    // the same status told again under a new event id changes nothing either
    expect((await callback(t.app, { instanceId: id, status: 'provisioning' })).json()).toEqual({ applied: false });
    expect(await statusEntries(id)).toHaveLength(1);
  });

  it('refuses a missing, forged or stale signature with 401, and changes nothing', async () => {
    const id = await createInstance(ctx.db, (await createCustomer(ctx.db)).id, 'creating');
    const event = { instanceId: id, status: 'provisioning' };
    const cases = [
      await callback(t.app, event, { signature: null }),
      await callback(t.app, event, { secret: 'another-secret-that-is-long-enough-0000' }),
      await callback(t.app, event, { signature: 't=1,v1=abc' }),
      // replayed six minutes later: outside the five minutes' tolerance
      await callback(t.app, event, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }),
    ];
    for (const response of cases) {
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('unauthenticated');
    }
    expect(await statusOf(id)).toBe('creating');
  });

  it('answers 400 for a signed body that is not a callback, 404 for an unknown instance, 409 for a step out of the lifecycle', async () => {
    const id = await createInstance(ctx.db, (await createCustomer(ctx.db)).id, 'creating');
    expect((await callback(t.app, { instanceId: id, status: 'exploded' })).statusCode).toBe(400);
    expect((await callback(t.app, { instanceId: 'one', status: 'provisioning' })).statusCode).toBe(400);
    expect((await callback(t.app, { instanceId: id, status: 'provisioned' })).statusCode).toBe(400);
    const notJson = 'not json';
    const raw = await t.app.inject({
      method: 'POST',
      url: '/api/instances/callback',
      headers: { 'content-type': 'application/json', 'portal-signature': signCallback(notJson) },
      payload: notJson,
    });
    expect(raw.statusCode).toBe(400);
    expect((await callback(t.app, { instanceId: 2_000_000, status: 'provisioning' })).statusCode).toBe(404);
    const skipped = await callback(t.app, { instanceId: id, status: 'deleted' });
    expect(skipped.statusCode).toBe(409);
    expect(skipped.json().error.message).toBe(
      `The cloud instance ${(await repo.findInstance(ctx.db, id))!.name} is creating: it cannot become deleted.`,
    );
    // refused, so not recorded: the orchestrator may send the right step under any id
    expect(await statusOf(id)).toBe('creating');
  });

  it('logs a failure the orchestrator reports and leaves the status as it is', async () => {
    const id = await createInstance(ctx.db, (await createCustomer(ctx.db)).id, 'provisioning');
    const response = await callback(t.app, { instanceId: id, status: 'failed', error: 'no capacity in eu-west' });
    expect(response.json()).toEqual({ applied: false });
    expect(await statusOf(id)).toBe('provisioning');
  });

  it('refuses every callback when no orchestrator is configured', async () => {
    const local = await createTestApp();
    try {
      const id = await createInstance(local.app.ctx.db, (await createCustomer(local.app.ctx.db)).id, 'creating');
      const response = await callback(local.app, { instanceId: id, status: 'provisioning' });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.message).toBe('No orchestrator is configured: callbacks are refused');
    } finally {
      await local.close();
    }
  });
});
