import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LICENCE_ERRORS } from '../../../common/api/licences';
import { addDays, utcToday } from '../../../common/licence-status';
import type { Role } from '../../../common/roles';
import { recordDownload } from '../downloads/repo';
import { createCustomer, createLicence, createProduct, createVersion, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { findLicenceBySecret } from './repo';
import { LICENCE_EXISTS, UNKNOWN_PRODUCT } from './service';

let t: TestApp;
let customerA: { id: number };
let customerB: { id: number };
/** licences of customer A: of "Alpha Product" (SaaS) and "Beta Product" (lke); one of B */
let alphaLicence: { id: number };
let betaLicence: { id: number };
let licenceOfB: { id: number };
const cookies = {} as Record<Role, string>;
const today = utcToday();
const day = (offset: number) => addDays(today, offset);

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  customerA = await createCustomer(db, { name: 'Licences A' });
  customerB = await createCustomer(db, { name: 'Licences B' });
  await createProduct(db, { key: 'beta-product', name: 'Beta Product', customizationType: 'lke' });
  await createProduct(db, { key: 'alpha-product', name: 'Alpha Product', isSaas: true });
  await createProduct(db, { key: 'gamma-product', name: 'Gamma Product', customizationType: 'ogma' });
  betaLicence = await createLicence(db, customerA.id, 'beta-product', { endDate: day(30), accessLevel: 'beta' });
  alphaLicence = await createLicence(db, customerA.id, 'alpha-product', { endDate: day(400) });
  licenceOfB = await createLicence(db, customerB.id, 'alpha-product');
  const { id: versionId } = await createVersion(db, 'alpha-product');
  for (const createdAt of ['2026-01-02T10:00:00.000Z', '2026-03-04T08:30:00.000Z', '2025-12-31T23:00:00.000Z']) {
    await recordDownload(db, {
      licenceId: alphaLicence.id,
      versionId,
      artifactId: null,
      userId: null,
      ip: null,
      createdAt,
    });
  }
  for (const role of ['admin', 'productManager', 'supportEngineer'] as const) {
    cookies[role] = (await signedIn(t.app, role)).cookie;
  }
  cookies.accountExecutive = (
    await signedIn(t.app, 'accountExecutive', { id: customerA.id, role: 'accountExecutive' })
  ).cookie;
  for (const role of ['businessOwner', 'technicalContact', 'endUser'] as const) {
    cookies[role] = (await signedIn(t.app, 'client', { id: customerA.id, role })).cookie;
  }
});
afterAll(async () => t?.close());

const call = (method: 'GET' | 'POST' | 'PATCH', cookie: string | null, url: string, payload?: unknown) =>
  request(t.app, cookie, { method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });
const list = (cookie: string | null, customerId: number | string, query = '') =>
  call('GET', cookie, `/api/customers/${customerId}/licenses${query}`);
const create = (cookie: string | null, customerId: number | string, payload: unknown) =>
  call('POST', cookie, `/api/customers/${customerId}/licenses`, payload);
const renew = (cookie: string | null, id: number | string, payload: unknown) =>
  call('PATCH', cookie, `/api/licenses/${id}`, payload);

const auditOf = (action: string) =>
  t.app.ctx.db.selectFrom('auditLog').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();

/** The first problem of a 400: its field and message key. */
const problemOf = (response: { statusCode: number; json: () => any }) => {
  expect(response.statusCode).toBe(400);
  return response.json().error.details[0];
};

describe('GET /api/customers/{id}/licenses', () => {
  it('needs a session (401), valid input (400), a role there (404) that sees licences (403)', async () => {
    expect((await list(null, customerA.id)).statusCode).toBe(401);
    expect((await list(cookies.businessOwner, 'abc')).statusCode).toBe(400);
    expect((await list(cookies.businessOwner, customerA.id, '?pageLength=0')).statusCode).toBe(400);
    expect((await list(cookies.businessOwner, customerB.id)).statusCode).toBe(404);
    expect((await list(cookies.accountExecutive, customerB.id)).statusCode).toBe(404);
    expect((await list(cookies.endUser, customerA.id)).statusCode).toBe(403);
  });

  it("lists the customer's licences by product name with their product and status", async () => {
    const response = await list(cookies.admin, customerA.id);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.total).toBe(2);
    expect(body.offset).toBe(0);
    expect(body.data.map((l: { productName: string }) => l.productName)).toEqual(['Alpha Product', 'Beta Product']);
    expect(body.data[0]).toMatchObject({
      id: alphaLicence.id,
      customerId: customerA.id,
      productKey: 'alpha-product',
      isSaas: true,
      customizationType: 'none',
      hasEntityResolution: false,
      status: 'valid',
      endDate: day(400),
      accessLevel: 'stable',
      data: {},
      customizationId: null,
    });
    expect(body.data[1]).toMatchObject({
      isSaas: false,
      customizationType: 'lke',
      status: 'warning',
      accessLevel: 'beta',
    });
  });

  it('pages: offset and length, with the total', async () => {
    const body = (await list(cookies.admin, customerA.id, '?pageOffset=1&pageLength=1')).json();
    expect(body).toMatchObject({ offset: 1, total: 2, totalCapped: false });
    expect(body.data.map((l: { id: number }) => l.id)).toEqual([betaLicence.id]);
  });

  it('gives the download secret to the roles that download, the latest download to staff', async () => {
    const expected: Record<string, { secret: boolean; latest: boolean }> = {
      admin: { secret: true, latest: true },
      accountExecutive: { secret: true, latest: true },
      productManager: { secret: false, latest: true },
      supportEngineer: { secret: true, latest: true },
      businessOwner: { secret: true, latest: false },
      technicalContact: { secret: true, latest: false },
    };
    for (const [role, sees] of Object.entries(expected)) {
      const [alpha, beta] = (await list(cookies[role as Role], customerA.id)).json().data;
      expect(alpha.downloadSecret === null, `${role} secret`).toBe(!sees.secret);
      if (sees.secret) expect(alpha.downloadSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // the latest of the licence's downloads; none for a licence never downloaded
      expect(alpha.latestDownload, `${role} latest`).toBe(sees.latest ? '2026-03-04T08:30:00.000Z' : null);
      expect(beta.latestDownload).toBeNull();
    }
  });
});

describe('POST /api/customers/{id}/licenses', () => {
  const valid = (productKey: string) => ({
    productKey,
    startDate: day(-10),
    endDate: day(355),
    data: { fixedLicenses: 3 },
  });

  it('needs a session (401), valid input (400), a role there (404) that manages licences (403)', async () => {
    const fresh = await createCustomer(t.app.ctx.db, { name: 'Refusals' });
    expect((await create(null, customerA.id, valid('gamma-product'))).statusCode).toBe(401);
    expect((await create(cookies.admin, 'abc', valid('gamma-product'))).statusCode).toBe(400);
    expect((await create(cookies.admin, customerA.id, {})).statusCode).toBe(400);
    expect((await create(cookies.accountExecutive, customerB.id, valid('gamma-product'))).statusCode).toBe(404);
    expect((await create(cookies.businessOwner, customerB.id, valid('gamma-product'))).statusCode).toBe(404);
    for (const role of ['businessOwner', 'technicalContact', 'endUser', 'supportEngineer'] as const) {
      expect((await create(cookies[role], customerA.id, valid('gamma-product'))).statusCode, role).toBe(403);
    }
    expect((await create(cookies.supportEngineer, fresh.id, valid('gamma-product'))).statusCode).toBe(403);
    const held = await t.app.ctx.db
      .selectFrom('licences')
      .select('id')
      .where('productKey', '=', 'gamma-product')
      .execute();
    expect(held).toEqual([]);
  });

  it('checks each rule with its message key', async () => {
    const { productKey: _p, ...noProduct } = valid('gamma-product');
    expect(problemOf(await create(cookies.admin, customerA.id, noProduct))).toEqual({
      path: 'productKey',
      message: 'errors.required',
    });
    const { startDate: _s, ...noStart } = valid('gamma-product');
    expect(problemOf(await create(cookies.admin, customerA.id, noStart))).toEqual({
      path: 'startDate',
      message: 'errors.required',
    });
    const { endDate: _e, ...noEnd } = valid('gamma-product');
    expect(problemOf(await create(cookies.admin, customerA.id, noEnd))).toEqual({
      path: 'endDate',
      message: 'errors.required',
    });
    const rule = async (change: object, path: string, message: string) =>
      expect(problemOf(await create(cookies.admin, customerA.id, { ...valid('gamma-product'), ...change }))).toEqual({
        path,
        message,
      });
    await rule({ endDate: '2026-02-30' }, 'endDate', LICENCE_ERRORS.invalidDate);
    await rule({ startDate: '2026-13-01' }, 'startDate', LICENCE_ERRORS.invalidDate);
    await rule({ startDate: '01/02/2026' }, 'startDate', LICENCE_ERRORS.invalidDate);
    await rule({ endDate: day(-1) }, 'endDate', LICENCE_ERRORS.endNotInFuture);
    await rule({ endDate: today }, 'endDate', LICENCE_ERRORS.endNotInFuture);
    await rule({ startDate: day(20), endDate: day(10) }, 'endDate', LICENCE_ERRORS.endBeforeStart);
    await rule({ startDate: day(20), endDate: day(20) }, 'endDate', LICENCE_ERRORS.endBeforeStart);
    await rule({ data: [1, 2] }, 'data', LICENCE_ERRORS.dataNotObject);
    await rule({ data: '{"fixedLicenses": 3}' }, 'data', LICENCE_ERRORS.dataNotObject);
    await rule({ data: null }, 'data', LICENCE_ERRORS.dataNotObject);
    expect(
      problemOf(await create(cookies.admin, customerA.id, { ...valid('gamma-product'), accessLevel: 'gold' })),
    ).toEqual({ path: 'accessLevel', message: 'errors.invalidOption', values: { allowed: 'alpha, beta, stable' } });
    const unknownField = await create(cookies.admin, customerA.id, { ...valid('gamma-product'), downloadSecret: 'x' });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error).toMatchObject({
      code: 'validation_error',
      details: [{ path: 'downloadSecret', message: 'errors.unknownField' }],
    });
    const held = await t.app.ctx.db
      .selectFrom('licences')
      .select('id')
      .where('productKey', '=', 'gamma-product')
      .execute();
    expect(held).toEqual([]);
  });

  it('refuses a product that does not exist, on productKey', async () => {
    const response = await create(cookies.admin, customerA.id, valid('no-such-product'));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'unknown_product',
      message: UNKNOWN_PRODUCT,
      details: [{ path: 'productKey', message: 'apiErrors.unknown_product' }],
    });
  });

  it('creates a licence (start in the past accepted, access level stable by default) with its audit entry', async () => {
    const customer = await createCustomer(t.app.ctx.db, { name: 'Creation' });
    const response = await create(cookies.productManager, customer.id, {
      ...valid('gamma-product'),
      startDate: day(-400),
    });
    expect(response.statusCode).toBe(201);
    const licence = response.json();
    expect(licence).toMatchObject({
      customerId: customer.id,
      productKey: 'gamma-product',
      productName: 'Gamma Product',
      customizationType: 'ogma',
      isSaas: false,
      hasEntityResolution: false,
      accessLevel: 'stable',
      status: 'valid',
      startDate: day(-400),
      endDate: day(355),
      data: { fixedLicenses: 3 },
      customizationId: null,
      // a product manager manages licences but does not download: no secret for them
      downloadSecret: null,
      latestDownload: null,
    });
    const stored = await t.app.ctx.db
      .selectFrom('licences')
      .selectAll()
      .where('id', '=', licence.id)
      .executeTakeFirstOrThrow();
    expect(stored.downloadSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(stored.data)).toEqual({ fixedLicenses: 3 });
    const [entry] = await auditOf('createLicence');
    expect(entry.customerId).toBe(customer.id);
    expect(JSON.parse(entry.data)).toEqual({
      licenceId: licence.id,
      productKey: 'gamma-product',
      productName: 'Gamma Product',
      accessLevel: 'stable',
      startDate: day(-400),
      endDate: day(355),
      hasEntityResolution: false,
    });
    expect(entry.data).not.toContain(stored.downloadSecret);

    // an admin downloads: the answer carries the secret
    const other = await create(cookies.admin, customer.id, { ...valid('beta-product'), hasEntityResolution: true });
    expect(other.statusCode).toBe(201);
    expect(other.json()).toMatchObject({ hasEntityResolution: true, customizationType: 'lke' });
    expect(other.json().downloadSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a second licence of a product (409 on productKey), also when two requests race', async () => {
    const response = await create(cookies.accountExecutive, customerA.id, valid('alpha-product'));
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'licence_exists',
      message: LICENCE_EXISTS,
      details: [{ path: 'productKey', message: 'apiErrors.licence_exists' }],
    });

    const customer = await createCustomer(t.app.ctx.db, { name: 'Race' });
    const answers = await Promise.all([
      create(cookies.admin, customer.id, valid('gamma-product')),
      create(cookies.productManager, customer.id, valid('gamma-product')),
      create(cookies.admin, customer.id, valid('gamma-product')),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409]);
    for (const refused of answers.filter((a) => a.statusCode === 409)) {
      expect(refused.json().error.code).toBe('licence_exists');
    }
    const rows = await t.app.ctx.db.selectFrom('licences').select('id').where('customerId', '=', customer.id).execute();
    expect(rows).toHaveLength(1);
    const entries = (await auditOf('createLicence')).filter((e) => e.customerId === customer.id);
    expect(entries).toHaveLength(1);
  });
});

describe('the newest release with files', () => {
  it('is the newest published version of the licence’s access level that has files', async () => {
    const { db } = t.app.ctx;
    const { key } = await createProduct(db, { name: 'Files Product' });
    const customer = await createCustomer(db, { name: 'Files' });
    const stable = await createLicence(db, customer.id, key, { accessLevel: 'stable' });
    const released = async (id: number, date: string) =>
      db.updateTable('versions').set({ releaseDate: date }).where('id', '=', id).execute();
    const listed = async () =>
      (await list(cookies.admin, customer.id)).json().data.find((l: { id: number }) => l.id === stable.id)
        .latestFilesReleased;
    expect(await listed()).toBeNull();
    await released((await createVersion(db, key, { platforms: ['linux'] })).id, day(-30));
    await released((await createVersion(db, key, { type: 'beta', platforms: ['linux'] })).id, day(-2));
    await released((await createVersion(db, key, { platforms: [] })).id, day(-1));
    await createVersion(db, key, { published: false, platforms: ['linux'] });
    expect(await listed()).toBe(day(-30));
    await db.updateTable('licences').set({ accessLevel: 'beta' }).where('id', '=', stable.id).execute();
    expect(await listed()).toBe(day(-2));

    // the other tests of this file count the products: this one leaves none behind
    const versionIds = (await db.selectFrom('versions').select('id').where('productKey', '=', key).execute()).map(
      (v) => v.id,
    );
    await db.deleteFrom('artifacts').where('versionId', 'in', versionIds).execute();
    await db.deleteFrom('versions').where('productKey', '=', key).execute();
    await db.deleteFrom('licences').where('productKey', '=', key).execute();
    await db.deleteFrom('products').where('key', '=', key).execute();
  });
});

describe('licences written at once in one customer', () => {
  // On PostgreSQL each licence's foreign key holds a share lock on the customer's row, and the
  // trigger that keeps the customer's latest licence end locks that row too: taken in the wrong
  // order, three creations at once deadlocked. Several rounds, since a deadlock is a matter of timing.
  it('creates three licences of three products at once, and renews them at once, without a failure', async () => {
    for (let round = 0; round < 8; round++) {
      const customer = await createCustomer(t.app.ctx.db, { name: `Simultaneous ${round}` });
      const created = await Promise.all(
        (['alpha-product', 'beta-product', 'gamma-product'] as const).map((key, i) =>
          create([cookies.admin, cookies.productManager, cookies.admin][i], customer.id, {
            productKey: key,
            startDate: day(-10),
            endDate: day(100 + i),
            data: { fixedLicenses: 3 },
          }),
        ),
      );
      expect(created.map((r) => r.statusCode)).toEqual([201, 201, 201]);
      const renewed = await Promise.all(
        created.map((r, i) =>
          renew(cookies.admin, r.json().id, {
            accessLevel: 'stable',
            endDate: day(200 + (i === 1 ? 50 : i)),
            data: { fixedLicenses: 4 },
          }),
        ),
      );
      expect(renewed.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      const { lastLicenceEnd } = await t.app.ctx.db
        .selectFrom('customers')
        .select('lastLicenceEnd')
        .where('id', '=', customer.id)
        .executeTakeFirstOrThrow();
      expect(lastLicenceEnd).toBe(day(250));
    }
  });
});

describe('GET /api/licenses/{id}', () => {
  const get = (cookie: string | null, id: number | string) => call('GET', cookie, `/api/licenses/${id}`);

  it('needs a session (401), a valid id (400), a role in its customer (404) that sees licences (403)', async () => {
    expect((await get(null, alphaLicence.id)).statusCode).toBe(401);
    expect((await get(cookies.businessOwner, 'abc')).statusCode).toBe(400);
    expect((await get(cookies.businessOwner, licenceOfB.id)).statusCode).toBe(404);
    expect((await get(cookies.admin, 999_999)).statusCode).toBe(404);
    expect((await get(cookies.endUser, alphaLicence.id)).statusCode).toBe(403);
  });

  it('gives the licence as the list does, for the caller', async () => {
    const owner = (await get(cookies.businessOwner, alphaLicence.id)).json();
    const inList = (await list(cookies.businessOwner, customerA.id)).json().data[0];
    expect(owner).toEqual(inList);
    expect(owner.latestDownload).toBeNull();
    expect((await get(cookies.supportEngineer, alphaLicence.id)).json().latestDownload).toBe(
      '2026-03-04T08:30:00.000Z',
    );
  });
});

describe('PATCH /api/licenses/{id}', () => {
  const renewal = { accessLevel: 'alpha', endDate: day(500), data: { fixedLicenses: 8 } };

  it('needs a session (401), valid input (400), a role in its customer (404) that manages licences (403)', async () => {
    expect((await renew(null, betaLicence.id, renewal)).statusCode).toBe(401);
    expect((await renew(cookies.admin, 'abc', renewal)).statusCode).toBe(400);
    expect((await renew(cookies.accountExecutive, licenceOfB.id, renewal)).statusCode).toBe(404);
    expect((await renew(cookies.admin, 999_999, renewal)).statusCode).toBe(404);
    for (const role of ['businessOwner', 'technicalContact', 'endUser', 'supportEngineer'] as const) {
      expect((await renew(cookies[role], betaLicence.id, renewal)).statusCode, role).toBe(403);
    }
  });

  it('checks each rule of the renewal with its message key', async () => {
    const rule = async (change: object, path: string, message: string) =>
      expect(problemOf(await renew(cookies.admin, betaLicence.id, { ...renewal, ...change }))).toEqual({
        path,
        message,
      });
    await rule({ endDate: undefined }, 'endDate', 'errors.required');
    await rule({ endDate: '2027-02-29' }, 'endDate', LICENCE_ERRORS.invalidDate);
    await rule({ endDate: today }, 'endDate', LICENCE_ERRORS.endNotInFuture);
    await rule({ endDate: day(-5) }, 'endDate', LICENCE_ERRORS.endNotInFuture);
    await rule({ data: [] }, 'data', LICENCE_ERRORS.dataNotObject);
    await rule({ data: 'text' }, 'data', LICENCE_ERRORS.dataNotObject);
    await rule({ data: null }, 'data', LICENCE_ERRORS.dataNotObject);
    const { accessLevel: _a, ...noAccessLevel } = renewal;
    expect(problemOf(await renew(cookies.admin, betaLicence.id, noAccessLevel)).path).toBe('accessLevel');
    expect((await renew(cookies.admin, betaLicence.id, { ...renewal, startDate: day(1) })).statusCode).toBe(400);

    // the end must also follow the stored start
    const customer = await createCustomer(t.app.ctx.db, { name: 'Future start' });
    const future = await createLicence(t.app.ctx.db, customer.id, 'alpha-product', {
      startDate: day(30),
      endDate: day(200),
    });
    const response = await renew(cookies.admin, future.id, { ...renewal, endDate: day(30) });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([{ path: 'endDate', message: LICENCE_ERRORS.endBeforeStart }]);
    const unchanged = (await call('GET', cookies.admin, `/api/licenses/${betaLicence.id}`)).json();
    expect(unchanged).toMatchObject({ endDate: day(30), accessLevel: 'beta' });
  });

  it('renews: end date, access level and data, with an audit entry of the change', async () => {
    const response = await renew(cookies.accountExecutive, betaLicence.id, renewal);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: betaLicence.id,
      endDate: day(500),
      accessLevel: 'alpha',
      data: { fixedLicenses: 8 },
      status: 'valid',
      hasEntityResolution: false,
    });
    const [entry] = await auditOf('renewLicence');
    expect(entry.customerId).toBe(customerA.id);
    expect(JSON.parse(entry.data)).toEqual({
      licenceId: betaLicence.id,
      productKey: 'beta-product',
      productName: 'Beta Product',
      endDate: { from: day(30), to: day(500) },
      accessLevel: { from: 'beta', to: 'alpha' },
      changes: {
        endDate: { from: day(30), to: day(500) },
        accessLevel: { from: 'beta', to: 'alpha' },
        data: { from: {}, to: { fixedLicenses: 8 } },
      },
    });
    const again = await renew(cookies.productManager, betaLicence.id, { ...renewal, hasEntityResolution: true });
    expect(again.json().hasEntityResolution).toBe(true);
    const [second] = await auditOf('renewLicence');
    expect(JSON.parse(second.data).changes).toEqual({ hasEntityResolution: { from: false, to: true } });
  });
});

describe('POST /api/licenses/{id}/secret', () => {
  const rotate = (cookie: string | null, id: number | string) => call('POST', cookie, `/api/licenses/${id}/secret`);

  it('needs a session (401), a valid id (400), a role in its customer (404) that manages licences (403)', async () => {
    expect((await rotate(null, alphaLicence.id)).statusCode).toBe(401);
    expect((await rotate(cookies.admin, '1.5')).statusCode).toBe(400);
    expect((await rotate(cookies.accountExecutive, licenceOfB.id)).statusCode).toBe(404);
    expect((await rotate(cookies.technicalContact, alphaLicence.id)).statusCode).toBe(403);
    expect((await rotate(cookies.supportEngineer, alphaLicence.id)).statusCode).toBe(403);
  });

  it('replaces the secret: the old one finds nothing at once, the new one finds the licence', async () => {
    const { db } = t.app.ctx;
    const before = await db
      .selectFrom('licences')
      .select('downloadSecret')
      .where('id', '=', alphaLicence.id)
      .executeTakeFirstOrThrow();
    expect((await findLicenceBySecret(db, before.downloadSecret))?.id).toBe(alphaLicence.id);

    const response = await rotate(cookies.accountExecutive, alphaLicence.id);
    expect(response.statusCode).toBe(200);
    const secret = response.json().downloadSecret;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secret).not.toBe(before.downloadSecret);
    expect(await findLicenceBySecret(db, before.downloadSecret)).toBeUndefined();
    expect((await findLicenceBySecret(db, secret))?.id).toBe(alphaLicence.id);
    expect((await list(cookies.technicalContact, customerA.id)).json().data[0].downloadSecret).toBe(secret);

    const [entry] = await auditOf('rotateDownloadSecret');
    expect(entry.customerId).toBe(customerA.id);
    expect(JSON.parse(entry.data)).toEqual({
      licenceId: alphaLicence.id,
      productKey: 'alpha-product',
      productName: 'Alpha Product',
    });
    expect(entry.data).not.toContain(secret);
    expect(entry.data).not.toContain(before.downloadSecret);
  });
});

describe('GET /api/customers/{id}/licensable-products', () => {
  const licensable = (cookie: string | null, id: number | string) =>
    call('GET', cookie, `/api/customers/${id}/licensable-products`);

  it('needs a session (401), a valid id (400), a role there (404) that manages licences (403)', async () => {
    expect((await licensable(null, customerA.id)).statusCode).toBe(401);
    expect((await licensable(cookies.admin, 'x')).statusCode).toBe(400);
    expect((await licensable(cookies.accountExecutive, customerB.id)).statusCode).toBe(404);
    expect((await licensable(cookies.businessOwner, customerA.id)).statusCode).toBe(403);
  });

  it('lists the products the customer holds no licence of, by name', async () => {
    const response = await licensable(cookies.accountExecutive, customerA.id);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data[0]).toEqual({ key: 'gamma-product', name: 'Gamma Product', isSaas: false, customizationType: 'ogma' });
    const keys = data.map((p: { key: string }) => p.key);
    expect(keys).not.toContain('alpha-product');
    expect(keys).not.toContain('beta-product');
    const all = await t.app.ctx.db.selectFrom('products').select(['key', 'name']).execute();
    const expected = all
      .filter((p) => !['alpha-product', 'beta-product'].includes(p.key))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((p) => p.key);
    expect(keys).toEqual(expected);
    const ofB = (await licensable(cookies.admin, customerB.id)).json().data.map((p: { key: string }) => p.key);
    expect(ofB).toContain('beta-product');
    expect(ofB).not.toContain('alpha-product');
  });
});
