import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../../common/webhooks';
import { createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { makeJobsDue } from '../../test/jobs';
import { Receiver } from '../../test/webhook-receiver';
import { createWebhookEndpoint } from '../../test/webhooks';
import { queueWebhookDeliveries, WEBHOOK_DELIVERY_JOB, WEBHOOK_USER_AGENT } from './deliver';
import { SIGNATURE_TOLERANCE_SECONDS, verifyWebhookSignature } from './signature';

/**
 * Deliveries against a real receiver on 127.0.0.1 (WEBHOOKS_ALLOW_PRIVATE on, as in every test app):
 * it checks each request's signature with the snippet of docs/webhooks.md. Then the SSRF rules, on a
 * portal with the flag off.
 */

let t: TestApp;
let receiver: Receiver;
let admin: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  receiver = new Receiver();
  await receiver.listen();
  // a short bound, so the test of an endpoint that never answers takes a moment
  t = await createTestApp({}, { webhooks: { allowPrivate: true, timeoutMs: 500 } });
  admin = await signedIn(t.app, 'admin');
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});
afterEach(async () => {
  receiver.received = [];
  receiver.flaky = 0;
  // the jobs of deleted deliveries find nothing to send: run them out, so each test counts its own
  await t.app.ctx.db.deleteFrom('webhookEndpoints').execute();
  await makeJobsDue(t.app.ctx.db, WEBHOOK_DELIVERY_JOB);
  await t.app.ctx.jobs.drain();
});

/** An endpoint through the API; the receiver learns its secret for `path`. */
async function endpoint(path: string, events: WebhookEvent[] = ['customer.created'], app = t, base = receiver.url) {
  const cookie = app === t ? admin.cookie : (await signedIn(app.app, 'admin')).cookie;
  const response = await request(app.app, cookie, {
    method: 'POST',
    url: '/api/webhooks',
    payload: { url: `${base}${path}`, events },
  });
  expect(response.statusCode).toBe(201);
  const created = response.json() as { id: number; secret: string };
  receiver.secrets.set(path, created.secret);
  return created;
}

const event = (type: WebhookEvent = 'customer.created') => ({
  id: crypto.randomUUID(),
  type,
  createdAt: new Date().toISOString(),
  data: { customer: { id: 7, name: 'Zoë & Co' } },
});

async function emit(e = event(), app = t) {
  const { ctx } = app.app;
  return ctx.db.transaction().execute((trx) => queueWebhookDeliveries(ctx, trx, e));
}

const deliveries = (app = t) => app.app.ctx.db.selectFrom('webhookDeliveries').selectAll().orderBy('id').execute();

describe('events from the portal', () => {
  it('tells a subscribed endpoint of a customer created, a licence created and its notification, signed', async () => {
    await endpoint('/events', ['customer.created', 'licence.created', 'newProductLicense', 'licence.renewed']);
    const { ctx } = t.app;
    const created = await request(t.app, admin.cookie, {
      method: 'POST',
      url: '/api/customers',
      payload: { name: 'Hooked Corp', customerKey: '', selfService: false },
    });
    expect(created.statusCode).toBe(201);
    const customerId = (created.json() as { id: number }).id;
    const product = await createProduct(ctx.db, { name: 'Hooked Product' });
    const today = new Date().toISOString().slice(0, 10);
    const licence = await request(t.app, admin.cookie, {
      method: 'POST',
      url: `/api/customers/${customerId}/licenses`,
      payload: { productKey: product.key, startDate: today, endDate: '2099-12-31', data: {} },
    });
    expect(licence.statusCode).toBe(201);
    // the services' events, then the notification's fan-out, then the deliveries
    await ctx.jobs.drain();

    const got = receiver.received.map((r) => ({
      verified: r.verified,
      ...(JSON.parse(r.body) as { type: string; data: Record<string, unknown> }),
    }));
    expect(got.map((r) => r.type).sort()).toEqual(['customer.created', 'licence.created', 'newProductLicense']);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(got.find((r) => r.type === 'customer.created')?.data).toMatchObject({ customerId, name: 'Hooked Corp' });
    expect(got.find((r) => r.type === 'licence.created')?.data).toMatchObject({ customerId, productKey: product.key });
    expect(got.find((r) => r.type === 'newProductLicense')?.data).toMatchObject({ licenceId: expect.any(Number) });
  });
});

describe('webhook deliveries', () => {
  it('posts the signed event once to each enabled endpoint subscribed to it', async () => {
    const ok = await endpoint('/ok', ['customer.created', 'licence.created']);
    await endpoint('/other', ['licence.renewed']);
    const disabled = await endpoint('/disabled');
    await request(t.app, admin.cookie, {
      method: 'PATCH',
      url: `/api/webhooks/${disabled.id}`,
      payload: { enabled: false },
    });

    const e = event();
    expect(await emit(e)).toHaveLength(1);
    expect(await t.app.ctx.jobs.drain()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    expect(got.path).toBe('/ok');
    expect(got.verified).toBe(true);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    expect(got.headers['portal-event-id']).toBe(e.id);
    expect(got.headers['portal-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(JSON.parse(got.body)).toEqual({ id: e.id, type: e.type, created: e.createdAt, data: e.data });
    expect(verifyWebhookSignature(ok.secret, got.headers['portal-signature'] as string, got.body)).toBe(true);

    const [row] = await deliveries();
    expect(row).toMatchObject({
      endpointId: ok.id,
      eventId: e.id,
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      lastError: null,
    });
    expect(row.responseMs).toBeGreaterThanOrEqual(0);
    expect(row.deliveredAt).toBeTruthy();
  });

  it('queues nothing when the transaction that emits the event rolls back', async () => {
    await endpoint('/ok');
    const { ctx } = t.app;
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await queueWebhookDeliveries(ctx, trx, event());
        throw new Error('the change failed');
      })
      .catch(() => {});
    expect(await deliveries()).toEqual([]);
    expect(await ctx.jobs.drain()).toBe(0);
  });

  it('retries a 500 with backoff and succeeds on the next attempt', async () => {
    await endpoint('/flaky');
    await emit();
    expect(await t.app.ctx.jobs.drain()).toBe(1);
    expect((await deliveries())[0]).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
    expect((await deliveries())[0].lastError).toMatch(/answered 500/);
    // not due before its backoff
    expect(await t.app.ctx.jobs.drain()).toBe(0);
    await makeJobsDue(t.app.ctx.db, WEBHOOK_DELIVERY_JOB);
    expect(await t.app.ctx.jobs.drain()).toBe(1);
    expect((await deliveries())[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      responseStatus: 204,
      lastError: null,
    });
    expect(receiver.received.map((r) => r.verified)).toEqual([true, true]);
  });

  it('fails an attempt the endpoint never answers, after the timeout', async () => {
    await endpoint('/hang');
    await emit();
    const began = Date.now();
    expect(await t.app.ctx.jobs.drain()).toBe(1);
    expect(Date.now() - began).toBeLessThan(5000);
    const [row] = await deliveries();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
    expect(row.lastError).toMatch(/no answer within 0.5 s/);
    expect(row.responseMs).toBeGreaterThanOrEqual(450);
  });

  it('counts a redirect as a failure and does not follow it', async () => {
    await endpoint('/redirect');
    await emit();
    await t.app.ctx.jobs.drain();
    expect(receiver.received.map((r) => r.path)).toEqual(['/redirect']);
    const [row] = await deliveries();
    expect(row).toMatchObject({ status: 'pending', responseStatus: 302 });
    expect(row.lastError).toMatch(/302 \(redirects are not followed\)/);
  });

  it('reads a large answer no further than its cap', async () => {
    await endpoint('/big');
    await emit();
    await t.app.ctx.jobs.drain();
    expect((await deliveries())[0]).toMatchObject({ status: 'succeeded', responseStatus: 200 });
  });

  it('gives up after 13 attempts, then a resend delivers it', async () => {
    const { id } = await endpoint('/fail');
    await emit();
    let attempts = 0;
    for (;;) {
      const ran = await t.app.ctx.jobs.drain();
      if (ran === 0) break;
      attempts += ran;
      await makeJobsDue(t.app.ctx.db, WEBHOOK_DELIVERY_JOB);
    }
    expect(attempts).toBe(13);
    const [row] = await deliveries();
    expect(row).toMatchObject({ status: 'failed', attempts: 13, responseStatus: 500 });

    // the receiver is fixed: point the endpoint at it and send the delivery again
    await request(t.app, admin.cookie, {
      method: 'PATCH',
      url: `/api/webhooks/${id}`,
      payload: { url: `${receiver.url}/ok` },
    });
    receiver.secrets.set('/ok', receiver.secrets.get('/fail')!);
    const resent = await request(t.app, admin.cookie, {
      method: 'POST',
      url: `/api/webhooks/${id}/deliveries/${row.id}/resend`,
    });
    expect(resent.statusCode).toBe(202);
    expect(resent.json()).toMatchObject({ id: row.id, status: 'pending' });
    expect(await t.app.ctx.jobs.drain()).toBe(1);
    expect((await deliveries())[0]).toMatchObject({ status: 'succeeded', attempts: 14, responseStatus: 200 });
    const last = receiver.received.at(-1)!;
    expect(last.verified).toBe(true);
    expect(last.body).toBe(row.payload);
  });

  it('fails a pending delivery whose endpoint was disabled meanwhile, without posting', async () => {
    const { id } = await endpoint('/ok');
    await emit();
    await request(t.app, admin.cookie, { method: 'PATCH', url: `/api/webhooks/${id}`, payload: { enabled: false } });
    await t.app.ctx.jobs.drain();
    expect(receiver.received).toEqual([]);
    expect((await deliveries())[0]).toMatchObject({
      status: 'failed',
      attempts: 0,
      lastError: 'the endpoint is disabled',
    });
  });

  it('refuses an unknown event type', async () => {
    await expect(emit({ ...event(), type: 'customer.deleted' as WebhookEvent })).rejects.toThrow(
      /unknown webhook event/,
    );
  });
});

describe('the signature a receiver checks', () => {
  const secret = 'whsec_test';
  const body = '{"id":"1"}';
  const now = 1_800_000_000;
  const sign = (t: number, key = secret, signed = body) =>
    `t=${t},v1=${crypto.createHmac('sha256', key).update(`${t}.${signed}`).digest('hex')}`;

  it('accepts a fresh signature of the body with the secret', () => {
    expect(verifyWebhookSignature(secret, sign(now), body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, `${sign(now)},v1=${'0'.repeat(64)}`, body, { now })).toBe(true);
  });

  it('refuses a forged one: another secret, another body, garbage', () => {
    expect(verifyWebhookSignature(secret, sign(now, 'whsec_other'), body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, sign(now, secret, '{"id":"2"}'), body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, `t=${now},v1=${'0'.repeat(64)}`, body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, 'garbage', body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, undefined, body, { now })).toBe(false);
  });

  it('refuses a replay: a timestamp older than five minutes (or as far ahead)', () => {
    const old = now - SIGNATURE_TOLERANCE_SECONDS - 1;
    expect(verifyWebhookSignature(secret, sign(old), body, { now })).toBe(false);
    expect(verifyWebhookSignature(secret, sign(now - SIGNATURE_TOLERANCE_SECONDS), body, { now })).toBe(true);
    expect(verifyWebhookSignature(secret, sign(now + SIGNATURE_TOLERANCE_SECONDS + 1), body, { now })).toBe(false);
  });
});

describe('SSRF: where a delivery may connect', () => {
  let closed: TestApp;
  beforeAll(async () => {
    closed = await createTestApp(
      { WEBHOOKS_ALLOW_PRIVATE: 'false' },
      { webhooks: { allowPrivate: false, timeoutMs: 2000 } },
    );
  });
  afterAll(async () => closed?.close());

  // The endpoints are written as they stand in the database: the API now refuses most of these
  // literals when they are saved (url-address.test.ts), but an endpoint saved before that, or while
  // WEBHOOKS_ALLOW_PRIVATE was on, is still refused at each delivery.
  async function attempt(app: TestApp, url: string) {
    await createWebhookEndpoint(app.app.ctx.db, app.config.sessionSecret, url);
    const e = event('customer.created');
    await emit(e, app);
    await app.app.ctx.jobs.drain();
    const row = await app.app.ctx.db
      .selectFrom('webhookDeliveries')
      .selectAll()
      .where('eventId', '=', e.id)
      .executeTakeFirstOrThrow();
    await app.app.ctx.db.deleteFrom('webhookEndpoints').execute();
    return row;
  }

  it('refuses loopback, private and link-local addresses, and names that resolve to them', async () => {
    const port = new URL(receiver.url).port;
    for (const [url, reason] of [
      [`http://127.0.0.1:${port}/ok`, /127\.0\.0\.1 is a loopback address and WEBHOOKS_ALLOW_PRIVATE is off/],
      ['http://10.1.2.3/hook', /10\.1\.2\.3 is a private address and WEBHOOKS_ALLOW_PRIVATE is off/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a link-local address/],
      [`http://localhost:${port}/ok`, /refused: localhost resolves to .* is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${port}/ok`, /127\.0\.0\.1 is a loopback address/],
      ['http://0.0.0.0/hook', /0\.0\.0\.0 is an unspecified address/],
    ] as const) {
      const row = await attempt(closed, url);
      expect(row, url).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
      expect(row.lastError, url).toMatch(reason);
    }
    expect(receiver.received).toEqual([]);
  });

  it('refuses link-local, cloud metadata and IPv4-compatible addresses even when private ones are allowed', async () => {
    const port = new URL(receiver.url).port;
    for (const [url, reason] of [
      ['http://169.254.169.254/latest/meta-data/', /is a link-local address$/],
      ['http://[fe80::1]/hook', /is a link-local address$/],
      ['http://100.100.100.200/latest/meta-data/', /100\.100\.100\.200 is a cloud metadata address$/],
      ['http://168.63.129.16/machine', /168\.63\.129\.16 is a cloud metadata address$/],
      ['http://[fd00:ec2::254]/latest/meta-data/', /fd00:ec2::254 is a cloud metadata address$/],
      [`http://[::7f00:1]:${port}/ok`, /::7f00:1 is a deprecated IPv4-compatible address$/],
    ] as const) {
      const row = await attempt(t, url);
      expect(row.lastError, url).toMatch(reason);
    }
    expect(receiver.received).toEqual([]);
  });
});
