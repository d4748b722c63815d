import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationItem, NotificationList } from '../../../common/api/notifications';
import type { NotificationStatus } from '../../../common/domain';
import { MAX_NOTIFICATIONS_MARKED, type NotificationMessageKey, UNREAD_COUNT_CAP } from '../../../common/notifications';
import { createCustomer, createLicence, createProduct, createVersionWithFiles, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { insertNotification } from './repo';

/**
 * The notification centre's API: each signed-in user lists and marks read their own notifications,
 * newest first and by page, with their unread count; another user's ids are ignored, never refused.
 * Who may call the routes at all is the authorisation matrix's (anyone signed in).
 */
let t: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
});
afterAll(async () => t?.close());

const list = (cookie: string | null, query = '') =>
  request(app, cookie, { method: 'GET', url: `/api/notifications${query}` });
const markRead = (cookie: string | null, payload: unknown) =>
  request(app, cookie, { method: 'POST', url: '/api/notifications/read', payload: payload as object });

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A notification of `userId`, `minutes` old. */
async function notification(
  userId: number,
  minutes: number,
  options: { key?: NotificationMessageKey; params?: Record<string, string | number>; status?: NotificationStatus } = {},
) {
  const { id } = await insertNotification(app.ctx.db, {
    userId,
    messageKey: options.key ?? 'notification.newVersion',
    params: options.params ?? { productKey: 'graph-server', productName: 'Graph Server', semVer: `1.0.${minutes}` },
    status: options.status,
    createdAt: minutesAgo(minutes),
  });
  return id;
}

async function statusesOf(userId: number) {
  const rows = await app.ctx.db
    .selectFrom('notifications')
    .select(['id', 'status'])
    .where('userId', '=', userId)
    .orderBy('id')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.id, row.status]));
}

const page = async (cookie: string, query = ''): Promise<NotificationList> => {
  const response = await list(cookie, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('GET /api/notifications', () => {
  it('answers 401 to anonymous callers and 400 to a bad page, in the lists’ terms', async () => {
    expect((await list(null)).statusCode).toBe(401);
    const user = await signedIn(app, 'client');
    for (const query of [
      '?pageLength=0',
      '?pageLength=101',
      '?pageLength=abc',
      '?pageOffset=-1',
      '?pageOffset=1.5',
      '?pageOffset=1&pageOffset=2',
    ]) {
      const response = await list(user.cookie, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code, query).toBe('validation_error');
    }
  });

  it("lists the caller's own, newest first, by page, with the unread count and the list envelope", async () => {
    const me = await signedIn(app, 'client');
    const other = await signedIn(app, 'client');
    // created out of order; two of the same instant are ordered by id, the later first
    const ids = {
      old: await notification(me.id, 50, { status: 'read' }),
      newest: await notification(me.id, 1),
      middle: await notification(me.id, 20),
    };
    const sameInstant = minutesAgo(30);
    const twinA = (
      await insertNotification(app.ctx.db, {
        userId: me.id,
        messageKey: 'notification.newVersion',
        createdAt: sameInstant,
      })
    ).id;
    const twinB = (
      await insertNotification(app.ctx.db, {
        userId: me.id,
        messageKey: 'notification.newVersion',
        createdAt: sameInstant,
      })
    ).id;
    await notification(other.id, 0);
    await notification(other.id, 5);

    const first = await page(me.cookie, '?pageLength=2');
    expect(first.data.map((n) => n.id)).toEqual([ids.newest, ids.middle]);
    expect(first).toMatchObject({ offset: 0, total: 5, totalCapped: false, unread: 4, unreadCapped: false });
    const second = await page(me.cookie, '?pageOffset=2&pageLength=2');
    expect(second.data.map((n) => n.id)).toEqual([twinB, twinA]);
    expect(second.offset).toBe(2);
    const last = await page(me.cookie, '?pageOffset=4&pageLength=2');
    expect(last.data.map((n) => n.id)).toEqual([ids.old]);
    expect(last.data[0].status).toBe('read');
    // beyond the end: an empty page, the same count
    expect(await page(me.cookie, '?pageOffset=10')).toMatchObject({ data: [], total: 5, unread: 4 });
    // the default page length is the lists' (10)
    expect((await page(me.cookie)).data).toHaveLength(5);

    // the other user sees theirs only
    const theirs = await page(other.cookie);
    expect(theirs).toMatchObject({ total: 2, unread: 2 });
    expect(theirs.data.every((n) => !Object.values(ids).includes(n.id))).toBe(true);
  });

  it('gives each item its date, status, message key, parameters, and a link read from the parameters', async () => {
    const admin = await signedIn(app, 'admin');
    const customer = await createCustomer(app.ctx.db, { name: 'Linked' });
    const product = await createProduct(app.ctx.db, { key: 'linked-product' });
    const licence = await createLicence(app.ctx.db, customer.id, product.key);
    const created = minutesAgo(3);
    const { id } = await insertNotification(app.ctx.db, {
      userId: admin.id,
      messageKey: 'notification.licenseExpiresSoon',
      params: {
        customerId: customer.id,
        customerName: 'Linked',
        licenceId: licence.id,
        productKey: product.key,
        productName: 'Linked Product',
        endDate: '2030-01-31',
      },
      createdAt: created,
    });
    const [item] = (await page(admin.cookie)).data;
    expect(item).toEqual({
      id,
      date: created,
      status: 'unread',
      messageKey: 'notification.licenseExpiresSoon',
      params: {
        customerId: customer.id,
        customerName: 'Linked',
        licenceId: licence.id,
        productKey: product.key,
        productName: 'Linked Product',
        endDate: '2030-01-31',
      },
      link: `/accounts/${customer.id}`,
    } satisfies NotificationItem);
  });

  it("links a licence to its customer's page, a product to its page for whom may open it, else nowhere", async () => {
    const customer = await createCustomer(app.ctx.db);
    const product = await createProduct(app.ctx.db, { key: 'link-target' });
    const licence = await createLicence(app.ctx.db, customer.id, product.key);
    const linksOf = async (user: { id: number; cookie: string }) => {
      const rows: [string, Record<string, string | number>][] = [
        ['licence', { licenceId: licence.id, productName: 'P' }],
        ['licence as digits', { licenceId: String(licence.id) }],
        ['gone licence', { licenceId: 2_000_000_000 }],
        ['product', { productKey: product.key, productName: 'P', semVer: '1.0.0' }],
        ['odd product key', { productKey: '../users', productName: 'P' }],
        ['customer over licence', { customerId: customer.id + 1000, licenceId: licence.id }],
        ['bad customer id', { customerId: 'abc', productName: 'P' }],
        ['nothing', { email: 'someone@example.com' }],
      ];
      for (const [index, [, params]] of rows.entries()) await notification(user.id, 100 - index, { params });
      const items = (await page(user.cookie, '?pageLength=20')).data.reverse();
      return Object.fromEntries(rows.map(([name], index) => [name, items[index].link]));
    };
    const account = `/accounts/${customer.id}`;
    const common = {
      licence: account,
      'licence as digits': account,
      'gone licence': null,
      'odd product key': null,
      'customer over licence': `/accounts/${customer.id + 1000}`,
      'bad customer id': null,
      nothing: null,
    };
    for (const type of ['admin', 'productManager'] as const) {
      expect(await linksOf(await signedIn(app, type)), type).toEqual({ ...common, product: '/products/link-target' });
    }
    for (const type of ['supportEngineer', 'accountExecutive', 'client'] as const) {
      expect(await linksOf(await signedIn(app, type)), type).toEqual({ ...common, product: null });
    }
  });

  it('keeps only texts and numbers of parameters, and reads a broken row as having none', async () => {
    const user = await signedIn(app, 'client');
    const insert = (params: string) =>
      app.ctx.db
        .insertInto('notifications')
        .values({
          userId: user.id,
          messageKey: 'notification.emailError',
          params,
          status: 'unread',
          createdAt: minutesAgo(1),
        })
        .execute();
    await insert('{"email":"a@example.com","n":2,"nested":{"x":1},"list":[1],"flag":true,"none":null}');
    await insert('not json');
    await insert('[1,2]');
    const items = (await page(user.cookie)).data;
    expect(items.map((n) => n.params).sort((a, b) => Object.keys(b).length - Object.keys(a).length)).toEqual([
      { email: 'a@example.com', n: 2 },
      {},
      {},
    ]);
  });

  it('counts the unread up to a cap and says when there are more', async () => {
    const user = await signedIn(app, 'client');
    const createdAt = minutesAgo(1);
    await app.ctx.db
      .insertInto('notifications')
      .values(
        Array.from({ length: UNREAD_COUNT_CAP + 1 }, () => ({
          userId: user.id,
          messageKey: 'notification.newVersion',
          params: '{}',
          status: 'unread' as const,
          createdAt,
        })),
      )
      .execute();
    const first = await page(user.cookie);
    expect(first).toMatchObject({ unread: UNREAD_COUNT_CAP, unreadCapped: true, total: 1000, totalCapped: true });
    const answer = await markRead(user.cookie, { ids: [first.data[0].id, first.data[1].id] });
    expect(answer.json()).toEqual({ unread: UNREAD_COUNT_CAP - 1, unreadCapped: false });
  });

  it('lists what a download wrote, linked to the customer it was downloaded for', async () => {
    const { ctx } = app;
    const product = await createProduct(ctx.db, { name: 'Told Product' });
    const buyer = await createCustomer(ctx.db);
    await createLicence(ctx.db, buyer.id, product.key);
    const bytes = crypto.randomBytes(1024);
    const version = await createVersionWithFiles(ctx, product.key, { semVer: '3.2.1', files: { linux: { bytes } } });
    const owner = await signedIn(app, 'client', { id: buyer.id, role: 'businessOwner' });
    const download = await request(app, owner.cookie, {
      method: 'GET',
      url: `/api/download/linux?customerId=${buyer.id}&versionId=${version.id}`,
    });
    expect(download.statusCode).toBe(200);
    await ctx.jobs.drain();
    const [item] = (await page(owner.cookie)).data;
    expect(item).toMatchObject({
      messageKey: 'notification.firstProductDownload',
      status: 'unread',
      params: {
        customerId: buyer.id,
        productKey: product.key,
        productName: 'Told Product',
        semVer: '3.2.1',
        platform: 'linux',
      },
      link: `/accounts/${buyer.id}`,
    });
  });
});

describe('POST /api/notifications/read', () => {
  it('answers 401 to anonymous callers and 400 to a body that is neither ids nor all, changing nothing', async () => {
    const user = await signedIn(app, 'client');
    const id = await notification(user.id, 1);
    expect((await markRead(null, { all: true })).statusCode).toBe(401);
    const tooMany = Array.from({ length: MAX_NOTIFICATIONS_MARKED + 1 }, (_, i) => i + 1);
    for (const body of [
      {},
      { ids: [] },
      { ids: tooMany },
      { ids: [0] },
      { ids: [-1] },
      { ids: [1.5] },
      { ids: ['1'] },
      { ids: [2_147_483_648] },
      { ids: id },
      { all: false },
      { all: 'true' },
      { ids: [id], all: true },
      { all: true, userId: 1 },
      [],
    ]) {
      const response = await markRead(user.cookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
    }
    const neither = await markRead(user.cookie, {});
    expect(neither.json().error.details).toEqual([{ path: '', message: 'notificationCentre.errors.idsOrAll' }]);
    expect(await statusesOf(user.id)).toEqual({ [id]: 'unread' });
  });

  it("marks the caller's own by id, ignores other users' and unknown ids, and answers the unread count", async () => {
    const me = await signedIn(app, 'client');
    const other = await signedIn(app, 'accountExecutive');
    const mine = [await notification(me.id, 3), await notification(me.id, 2), await notification(me.id, 1)];
    const theirs = await notification(other.id, 1);

    const answer = await markRead(me.cookie, { ids: [mine[0], theirs, 2_000_000_000, mine[0]] });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ unread: 2, unreadCapped: false });
    expect(await statusesOf(me.id)).toEqual({ [mine[0]]: 'read', [mine[1]]: 'unread', [mine[2]]: 'unread' });
    // the other user's notification is untouched, and marking it again answers the same as for an unknown id
    expect(await statusesOf(other.id)).toEqual({ [theirs]: 'unread' });
    expect((await markRead(me.cookie, { ids: [theirs] })).json()).toEqual({ unread: 2, unreadCapped: false });
    expect((await markRead(me.cookie, { ids: [2_000_000_001] })).json()).toEqual({ unread: 2, unreadCapped: false });
    // marking a read one again changes nothing
    expect((await markRead(me.cookie, { ids: [mine[0]] })).json()).toEqual({ unread: 2, unreadCapped: false });
    expect((await page(me.cookie)).unread).toBe(2);
  });

  it("marks all of the caller's own read, and no one else's", async () => {
    const me = await signedIn(app, 'supportEngineer');
    const other = await signedIn(app, 'client');
    const mine = [await notification(me.id, 2), await notification(me.id, 1)];
    const theirs = [await notification(other.id, 2), await notification(other.id, 1)];
    const answer = await markRead(me.cookie, { all: true });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ unread: 0, unreadCapped: false });
    expect(await statusesOf(me.id)).toEqual({ [mine[0]]: 'read', [mine[1]]: 'read' });
    expect(await statusesOf(other.id)).toEqual({ [theirs[0]]: 'unread', [theirs[1]]: 'unread' });
    expect((await page(other.cookie)).unread).toBe(2);
    // nothing left to mark: the same answer
    expect((await markRead(me.cookie, { all: true })).json()).toEqual({ unread: 0, unreadCapped: false });
  });
});
