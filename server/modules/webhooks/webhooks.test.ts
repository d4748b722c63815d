import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_URL_MAX } from '../../../common/webhooks';
import { signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { createWebhookDelivery } from '../../test/webhooks';
import { unsealWebhookSecret } from './secrets';

/** The admins' webhook API (docs/webhooks.md): 401, 400, 403, then what each route does. */

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let manager: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t.app, 'admin');
  manager = await signedIn(t.app, 'productManager');
});
afterAll(async () => t?.close());

const create = (payload: object, cookie = admin.cookie) =>
  request(t.app, cookie, { method: 'POST', url: '/api/webhooks', payload });
const entries = (action: string) =>
  t.app.ctx.db.selectFrom('auditLog').selectAll().where('action', '=', action).orderBy('id').execute();

describe('webhook endpoints API', () => {
  it('answers 401 without a session', async () => {
    expect((await request(t.app, null, { method: 'GET', url: '/api/webhooks' })).statusCode).toBe(401);
    const response = await create({ url: 'https://hooks.example.com/a', events: ['newVersion'] }, '');
    expect(response.statusCode).toBe(401);
  });

  it('refuses a URL that is not http(s), holds credentials or is too long, and events outside the list', async () => {
    const cases: [object, string, string][] = [
      [{ url: 'ftp://hooks.example.com/a', events: ['newVersion'] }, 'url', 'webhooks.errors.url'],
      [{ url: 'javascript:alert(1)', events: ['newVersion'] }, 'url', 'webhooks.errors.url'],
      [{ url: 'not a url', events: ['newVersion'] }, 'url', 'webhooks.errors.url'],
      [
        { url: 'https://user:pass@hooks.example.com/a', events: ['newVersion'] },
        'url',
        'webhooks.errors.urlCredentials',
      ],
      [{ url: 'https://token@hooks.example.com/a', events: ['newVersion'] }, 'url', 'webhooks.errors.urlCredentials'],
      [{ url: '', events: ['newVersion'] }, 'url', 'errors.required'],
      [{ events: ['newVersion'] }, 'url', 'errors.required'],
      [{ url: 'https://hooks.example.com/a', events: [] }, 'events', 'webhooks.errors.events'],
    ];
    for (const [payload, path, message] of cases) {
      const response = await create(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.details, JSON.stringify(payload)).toContainEqual(
        expect.objectContaining({ path, message }),
      );
    }
    const long = `https://hooks.example.com/${'a'.repeat(WEBHOOK_URL_MAX)}`;
    expect((await create({ url: long, events: ['newVersion'] })).statusCode).toBe(400);
    expect((await create({ url: 'https://hooks.example.com/a', events: ['customer.deleted'] })).statusCode).toBe(400);
    expect(
      (await create({ url: 'https://hooks.example.com/a', events: ['newVersion'], secret: 'mine' })).statusCode,
    ).toBe(400);
    expect(await t.app.ctx.db.selectFrom('webhookEndpoints').selectAll().execute()).toEqual([]);
  });

  it('answers 403 to anyone but an admin', async () => {
    expect((await request(t.app, manager.cookie, { method: 'GET', url: '/api/webhooks' })).statusCode).toBe(403);
    const response = await create({ url: 'https://hooks.example.com/a', events: ['newVersion'] }, manager.cookie);
    expect(response.statusCode).toBe(403);
  });

  it('creates an endpoint, shows its secret once, keeps it sealed and audits the change', async () => {
    const response = await create({
      url: 'https://hooks.example.com/portal?tenant=7',
      events: ['customer.created', 'newVersion', 'customer.created'],
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/portal?tenant=7',
      // in the list's order, each once
      events: ['newVersion', 'customer.created'],
      enabled: true,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    const listed = (await request(t.app, admin.cookie, { method: 'GET', url: '/api/webhooks' })).json();
    expect(listed.data).toContainEqual({ ...created, secret: undefined });
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const row = await t.app.ctx.db
      .selectFrom('webhookEndpoints')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.secretSealed).not.toContain(created.secret.slice(6));
    expect(unsealWebhookSecret(t.config.sessionSecret, row.secretSealed)).toBe(created.secret);
    expect(unsealWebhookSecret('another-server-secret-that-is-long-enough', row.secretSealed)).toBeNull();

    const [entry] = (await entries('createWebhook')).slice(-1);
    expect(entry).toMatchObject({ customerId: null, actorKind: 'user', actorId: admin.id });
    expect(JSON.parse(entry.data)).toEqual({
      webhookId: created.id,
      url: created.url,
      events: ['newVersion', 'customer.created'],
    });
    expect(entry.data).not.toContain(created.secret);
  });

  it('changes the URL, events and state, with an entry of what changed; 404 for an unknown endpoint', async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/b', events: ['newVersion'] })).json();
    const response = await request(t.app, admin.cookie, {
      method: 'PATCH',
      url: `/api/webhooks/${id}`,
      payload: { url: 'https://hooks.example.com/c', events: ['licence.created'], enabled: false },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id,
      url: 'https://hooks.example.com/c',
      events: ['licence.created'],
      enabled: false,
    });
    const [entry] = (await entries('updateWebhook')).slice(-1);
    expect(JSON.parse(entry.data)).toEqual({
      webhookId: id,
      changes: {
        url: { from: 'https://hooks.example.com/b', to: 'https://hooks.example.com/c' },
        events: { from: ['newVersion'], to: ['licence.created'] },
        enabled: { from: true, to: false },
      },
    });
    const bad = await request(t.app, admin.cookie, {
      method: 'PATCH',
      url: `/api/webhooks/${id}`,
      payload: { url: 'file:///etc/passwd' },
    });
    expect(bad.statusCode).toBe(400);
    const unknown = await request(t.app, admin.cookie, {
      method: 'PATCH',
      url: '/api/webhooks/999999',
      payload: { enabled: true },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('deletes an endpoint with its deliveries, once', async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/d', events: ['newVersion'] })).json();
    await createWebhookDelivery(t.app.ctx.db, id);
    const remove = () => request(t.app, admin.cookie, { method: 'DELETE', url: `/api/webhooks/${id}` });
    expect((await remove()).statusCode).toBe(200);
    expect((await remove()).statusCode).toBe(404);
    const left = await t.app.ctx.db.selectFrom('webhookDeliveries').selectAll().where('endpointId', '=', id).execute();
    expect(left).toEqual([]);
    expect(JSON.parse((await entries('deleteWebhook')).at(-1)!.data)).toEqual({
      webhookId: id,
      url: 'https://hooks.example.com/d',
    });
  });

  it("lists an endpoint's deliveries newest first, by page, in the lists' envelope", async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/e', events: ['newVersion'] })).json();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createWebhookDelivery(t.app.ctx.db, id));
    const page = (query: string) =>
      request(t.app, admin.cookie, { method: 'GET', url: `/api/webhooks/${id}/deliveries${query}` });
    const first = (await page('?pageLength=2')).json();
    expect(first).toMatchObject({ offset: 0, total: 3, totalCapped: false });
    expect(first.data.map((d: { id: number }) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.data[0]).toMatchObject({
      eventType: 'customer.created',
      status: 'pending',
      attempts: 0,
      responseStatus: null,
      responseMs: null,
      lastError: null,
      deliveredAt: null,
    });
    const second = (await page('?pageLength=2&pageOffset=2')).json();
    expect(second.data.map((d: { id: number }) => d.id)).toEqual([ids[0]]);
    expect((await page('?pageLength=0')).statusCode).toBe(400);
    const unknown = await request(t.app, admin.cookie, { method: 'GET', url: '/api/webhooks/999999/deliveries' });
    expect(unknown.statusCode).toBe(404);
  });

  it("resends a delivery of that endpoint only, with an entry; 404 for another endpoint's", async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/f', events: ['newVersion'] })).json();
    const other = (await create({ url: 'https://hooks.example.com/g', events: ['newVersion'] })).json();
    const deliveryId = await createWebhookDelivery(t.app.ctx.db, id);
    await t.app.ctx.db
      .updateTable('webhookDeliveries')
      .set({ status: 'failed' })
      .where('id', '=', deliveryId)
      .execute();
    const resend = (endpointId: number) =>
      request(t.app, admin.cookie, {
        method: 'POST',
        url: `/api/webhooks/${endpointId}/deliveries/${deliveryId}/resend`,
      });
    expect((await resend(other.id)).statusCode).toBe(404);
    const response = await resend(id);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ id: deliveryId, status: 'pending' });
    expect(JSON.parse((await entries('resendWebhookDelivery')).at(-1)!.data)).toMatchObject({
      webhookId: id,
      deliveryId,
    });
    expect(
      (
        await request(t.app, manager.cookie, {
          method: 'POST',
          url: `/api/webhooks/${id}/deliveries/${deliveryId}/resend`,
        })
      ).statusCode,
    ).toBe(403);
  });
});
