import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import { signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { makeJobsDue } from '../../test/jobs';
import { Receiver } from '../../test/webhook-receiver';
import { ATTEMPTS_PER_ENDPOINT, queueWebhookDeliveries, WEBHOOK_DELIVERY_JOB } from './deliver';

/**
 * An endpoint that never answers holds up no one else's deliveries (docs/webhooks.md): on a started
 * portal, a burst of events to a hanging endpoint and to a prompt one, more than the deliveries a node
 * runs at once. The prompt endpoint has all of its events before the hanging one's first attempt
 * times out; the hanging one's attempts fail at their timeout and are retried later.
 */
const TIMEOUT_MS = 5000;
/** more deliveries per endpoint than a node runs at once (server/job-kinds.ts) */
const EVENTS = 30;

let t: TestApp;
let ctx: AppContext;
let receiver: Receiver;
beforeAll(async () => {
  receiver = new Receiver();
  await receiver.listen();
  t = await createTestApp({}, { webhooks: { allowPrivate: true, timeoutMs: TIMEOUT_MS } });
  ctx = t.app.ctx;
});
afterAll(async () => {
  await ctx?.jobs.stop();
  await t?.close();
  await receiver?.close();
});

async function until(check: () => Promise<boolean> | boolean, ms: number) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

const deliveriesTo = (endpointId: number) =>
  ctx.db
    .selectFrom('webhookDeliveries')
    .select(['id', 'eventId', 'status', 'attempts', 'lastError'])
    .where('endpointId', '=', endpointId)
    .orderBy('id')
    .execute();

describe('a hanging endpoint', () => {
  it('does not hold up the deliveries to a prompt one, and is retried after its timeout', async () => {
    const admin = await signedIn(t.app, 'admin');
    const endpoint = async (path: string) => {
      const response = await request(t.app, admin.cookie, {
        method: 'POST',
        url: '/api/webhooks',
        payload: { url: `${receiver.url}${path}`, events: ['customer.created'] },
      });
      expect(response.statusCode).toBe(201);
      const created = response.json() as { id: number; secret: string };
      receiver.secrets.set(path, created.secret);
      return created.id;
    };
    // the hanging one first: each event's delivery to it is queued before the prompt one's
    const hanging = await endpoint('/hang');
    const prompt = await endpoint('/ok');
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < EVENTS; i++) {
        await queueWebhookDeliveries(ctx, trx, {
          id: crypto.randomUUID(),
          type: 'customer.created',
          createdAt: new Date().toISOString(),
          data: { customer: { id: i, name: `Burst ${i}` } },
        });
      }
    });

    await ctx.jobs.start();
    const recorded = async (endpointId: number) => (await deliveriesTo(endpointId)).filter((row) => row.attempts > 0);
    const promptDone = await until(async () => (await recorded(prompt)).length === EVENTS, TIMEOUT_MS * 5);
    // every one delivered before any attempt to the hanging endpoint timed out
    const hangingRecorded = (await recorded(hanging)).length;
    expect(promptDone).toBe(true);
    expect(hangingRecorded).toBe(0);
    expect((await deliveriesTo(prompt)).every((row) => row.status === 'succeeded' && row.attempts === 1)).toBe(true);
    const promptPosts = receiver.received.filter((r) => r.path === '/ok');
    expect(promptPosts).toHaveLength(EVENTS);
    expect(promptPosts.every((r) => r.verified)).toBe(true);
    // the hanging endpoint was posted to, but holds no more of the node's delivery slots than its share
    const hangingPosts = receiver.received.filter((r) => r.path === '/hang').length;
    expect(hangingPosts).toBeGreaterThan(0);
    expect(hangingPosts).toBeLessThanOrEqual(ATTEMPTS_PER_ENDPOINT);

    // stopping waits for the attempts in progress: each fails at its timeout, to be retried later
    await ctx.jobs.stop();
    const failedOnes = await recorded(hanging);
    expect(failedOnes).toHaveLength(hangingPosts);
    for (const row of failedOnes) {
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastError: expect.stringMatching(/no answer within 5 s/),
      });
    }
    const [failed] = failedOnes;

    // retried once its backoff has passed, not before (the others are left out: their jobs find nothing)
    await ctx.db
      .deleteFrom('webhookDeliveries')
      .where('endpointId', '=', hanging)
      .where('id', '!=', failed.id)
      .execute();
    const posts = (path: string) =>
      receiver.received.filter((r) => r.path === path && r.headers['portal-event-id'] === failed.eventId);
    await ctx.jobs.drain();
    expect(posts('/hang')).toHaveLength(1);
    // the endpoint answers again meanwhile (moved to where the receiver answers)
    const moved = await request(t.app, admin.cookie, {
      method: 'PATCH',
      url: `/api/webhooks/${hanging}`,
      payload: { url: `${receiver.url}/elsewhere` },
    });
    expect(moved.statusCode).toBe(200);
    receiver.secrets.set('/elsewhere', receiver.secrets.get('/hang')!);
    await makeJobsDue(ctx.db, WEBHOOK_DELIVERY_JOB);
    await ctx.jobs.drain();
    expect(posts('/elsewhere').map((r) => r.verified)).toEqual([true]);
    expect((await deliveriesTo(hanging))[0]).toMatchObject({ id: failed.id, status: 'succeeded', attempts: 2 });
  });
});
