import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../db';
import {
  addMembership,
  createCustomer,
  createCustomization,
  createLicence,
  createProduct,
  createUser,
  login,
  signedIn,
} from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
let customerA: { id: number };
let customerB: { id: number };
let admin: Awaited<ReturnType<typeof signedIn>>;
let executive: { cookie: string };
let support: Awaited<ReturnType<typeof signedIn>>;
let owner: Awaited<ReturnType<typeof signedIn>>;
/** products customer A holds a licence of: lke, ogma, none; and an lke product it holds none of */
let lkeKey: string;
let ogmaKey: string;
let noneKey: string;
let unlicensedKey: string;

const LKE = { branding: { applicationName: 'Acme Graphs', primaryColor: '#1a73e8' }, defaultLocale: 'en' };
const OGMA = { domains: ['graph.acme.example'] };

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  customerA = await createCustomer(db, { name: 'Custom A' });
  customerB = await createCustomer(db, { name: 'Custom B' });
  admin = await signedIn(t.app, 'admin');
  support = await signedIn(t.app, 'supportEngineer');
  owner = await signedIn(t.app, 'client', { id: customerA.id, role: 'businessOwner' });
  const ae = await createUser(db, { type: 'accountExecutive', fullName: 'Executive A' });
  await addMembership(db, ae.id, customerA.id, 'accountExecutive');
  executive = { cookie: await login(t.app, ae.email) };
  lkeKey = (await createProduct(db, { name: 'Graph Server', customizationType: 'lke' })).key;
  ogmaKey = (await createProduct(db, { name: 'Graph Toolkit', customizationType: 'ogma' })).key;
  noneKey = (await createProduct(db, { name: 'Plain Product' })).key;
  unlicensedKey = (await createProduct(db, { customizationType: 'lke' })).key;
  for (const key of [lkeKey, ogmaKey, noneKey]) await createLicence(db, customerA.id, key);
  await createLicence(db, customerB.id, lkeKey);
});
afterAll(async () => t?.close());

const call = (cookie: string | null, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  request(t.app, cookie, { method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });

const body = (props: Record<string, unknown> = {}) => ({
  customerId: customerA.id,
  productKey: lkeKey,
  versionType: 'stable',
  customConfig: LKE,
  ...props,
});

const auditOf = (customerId: number, action: 'createCustomization' | 'updateCustomization') =>
  t.app.ctx.db
    .selectFrom('auditLog')
    .selectAll()
    .where('customerId', '=', customerId)
    .where('action', '=', action)
    .orderBy('id')
    .execute();

describe('POST /api/customizations/validate', () => {
  const validate = (cookie: string | null, payload: unknown) =>
    call(cookie, 'POST', '/api/customizations/validate', payload);

  it('needs a session (401), a well-formed body (400), a role there (404) that manages licences (403)', async () => {
    expect((await validate(null, body())).statusCode).toBe(401);
    expect((await validate(admin.cookie, body({ versionType: 'nightly' }))).statusCode).toBe(400);
    expect((await validate(admin.cookie, body({ customConfig: ['a'] }))).statusCode).toBe(400);
    expect((await validate(admin.cookie, body({ customConfig: undefined }))).statusCode).toBe(400);
    // the customer may be left out (validate-body.test.ts), not given as something else than an id
    expect((await validate(admin.cookie, body({ customerId: null }))).statusCode).toBe(400);
    expect((await validate(admin.cookie, body({ customerId: 'seven' }))).statusCode).toBe(400);
    expect((await validate(owner.cookie, body({ customerId: customerB.id }))).statusCode).toBe(404);
    expect((await validate(executive.cookie, body({ customerId: customerB.id }))).statusCode).toBe(404);
    expect((await validate(owner.cookie, body())).statusCode).toBe(403);
    expect((await validate(support.cookie, body())).statusCode).toBe(403);
  });

  it('answers 404 for a product the customer holds no licence of, 400 on productKey for one without customization', async () => {
    const unlicensed = await validate(admin.cookie, body({ productKey: unlicensedKey }));
    expect(unlicensed.statusCode).toBe(404);
    expect(unlicensed.json().error.message).toBe('License not found');
    expect((await validate(admin.cookie, body({ productKey: 'no-such-product' }))).statusCode).toBe(404);
    const none = await validate(admin.cookie, body({ productKey: noneKey }));
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('productKey: This product offers no customization.');
    expect(none.json().error.details).toEqual([
      { path: 'productKey', message: 'customization.errors.notCustomizable' },
    ]);
  });

  it("answers whether the configuration follows the product's schema, with its problems", async () => {
    const valid = await validate(executive.cookie, body());
    expect(valid.statusCode).toBe(200);
    expect(valid.json()).toEqual({ valid: true, problems: [] });

    const invalid = await validate(admin.cookie, body({ customConfig: { branding: { primaryColor: 'blue' } } }));
    expect(invalid.statusCode).toBe(200);
    expect(invalid.json()).toEqual({
      valid: false,
      problems: [
        { path: '/branding/applicationName', message: 'is required' },
        { path: '/branding/primaryColor', message: 'must be a colour in hexadecimal form, like #1a73e8' },
        { path: '/defaultLocale', message: 'is required' },
      ],
    });

    // the schema is the product's type's: an lke configuration is no ogma configuration
    const ogma = await validate(admin.cookie, body({ productKey: ogmaKey }));
    expect(ogma.json().valid).toBe(false);
    expect(ogma.json().problems).toContainEqual({ path: '/domains', message: 'is required' });
    expect((await validate(admin.cookie, body({ productKey: ogmaKey, customConfig: OGMA }))).json().valid).toBe(true);
  });

  it("says the problems in the caller's language, also when a save is refused", async () => {
    const french = await createUser(t.app.ctx.db, { type: 'admin', preferredLocale: 'fr' });
    const cookie = await login(t.app, french.email);
    const invalid = await validate(cookie, body({ customConfig: { branding: { primaryColor: 'blue' } } }));
    expect(invalid.json().problems).toEqual([
      { path: '/branding/applicationName', message: 'est obligatoire' },
      { path: '/branding/primaryColor', message: 'doit être une couleur en hexadécimal, comme #1a73e8' },
      { path: '/defaultLocale', message: 'est obligatoire' },
    ]);
    const refused = await call(cookie, 'POST', '/api/customizations', body({ customConfig: { branding: {} } }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toContainEqual({
      path: 'customConfig/branding/applicationName',
      message: 'est obligatoire',
    });
  });

  it('stores nothing', async () => {
    const { count } = await t.app.ctx.db
      .selectFrom('customizations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('customerId', '=', customerA.id)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(0);
  });
});

describe('POST /api/customizations', () => {
  const create = (cookie: string | null, payload: unknown) => call(cookie, 'POST', '/api/customizations', payload);

  it('needs a session (401), valid input (400), a role there (404) that manages licences (403)', async () => {
    expect((await create(null, body())).statusCode).toBe(401);
    expect((await create(admin.cookie, body({ versionType: undefined }))).statusCode).toBe(400);
    expect((await create(admin.cookie, body({ customConfig: 'not json' }))).statusCode).toBe(400);
    expect((await create(owner.cookie, body({ customerId: customerB.id }))).statusCode).toBe(404);
    expect((await create(owner.cookie, body())).statusCode).toBe(403);
    expect((await create(support.cookie, body())).statusCode).toBe(403);
  });

  it('refuses an invalid configuration with one detail per problem, under customConfig', async () => {
    const response = await create(
      admin.cookie,
      body({ customConfig: { ...LKE, branding: { applicationName: 'X', logoUrl: 'http://a.example/l.svg' }, x: 1 } }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([
      { path: 'customConfig/branding/logoUrl', message: 'must be an https:// URL' },
      { path: 'customConfig/x', message: expect.stringMatching(/^is not a known property/) },
    ]);
    expect((await create(admin.cookie, body({ productKey: noneKey }))).statusCode).toBe(400);
    expect((await create(admin.cookie, body({ productKey: unlicensedKey }))).statusCode).toBe(404);
  });

  it("creates it, points the customer's licences of the product to it and records it", async () => {
    const response = await create(executive.cookie, body({ versionType: 'beta', enabled: false }));
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      id: expect.any(Number),
      customerId: customerA.id,
      customerName: 'Custom A',
      productKey: lkeKey,
      productName: 'Graph Server',
      customizationType: 'lke',
      versionType: 'beta',
      customConfig: LKE,
      enabled: false,
      updatedAt: expect.any(String),
      can: { edit: true },
    });
    const licences = await t.app.ctx.db
      .selectFrom('licences')
      .select(['customerId', 'customizationId'])
      .where('productKey', '=', lkeKey)
      .orderBy('customerId')
      .execute();
    expect(licences).toEqual([
      { customerId: customerA.id, customizationId: created.id },
      { customerId: customerB.id, customizationId: null },
    ]);
    const audit = await auditOf(customerA.id, 'createCustomization');
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].data)).toEqual({
      customizationId: created.id,
      productKey: lkeKey,
      versionType: 'beta',
      enabled: false,
    });
  });

  it('enables it by default', async () => {
    const response = await create(admin.cookie, body({ productKey: ogmaKey, customConfig: OGMA }));
    expect(response.statusCode).toBe(201);
    expect(response.json().enabled).toBe(true);
  });

  it('refuses a second customization of the same product (409)', async () => {
    const response = await create(admin.cookie, body());
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe('This customer already has a customization of this product');
    expect(await auditOf(customerA.id, 'createCustomization')).toHaveLength(2);
  });

  it('makes one of two racing requests (409 for the other), and the database refuses a second row', async () => {
    const { db } = t.app.ctx;
    const { key } = await createProduct(db, { customizationType: 'lke' });
    await createLicence(db, customerA.id, key);
    const answers = await Promise.all([
      create(admin.cookie, body({ productKey: key })),
      create(admin.cookie, body({ productKey: key })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const rows = await db.selectFrom('customizations').select('id').where('productKey', '=', key).execute();
    expect(rows).toHaveLength(1);

    const error = await createCustomization(db, customerA.id, key).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });
});

describe('GET and PATCH /api/customizations/{id}', () => {
  let id: number;
  let idOfB: number;

  beforeAll(async () => {
    const { db } = t.app.ctx;
    const { key } = await createProduct(db, { name: 'Patch Server', customizationType: 'lke' });
    await createLicence(db, customerA.id, key);
    id = (await createCustomization(db, customerA.id, key, { customConfig: LKE })).id;
    idOfB = (await createCustomization(db, customerB.id, lkeKey, { customConfig: LKE })).id;
  });

  const get = (cookie: string | null, target: number | string) => call(cookie, 'GET', `/api/customizations/${target}`);
  const patch = (cookie: string | null, target: number | string, payload: unknown) =>
    call(cookie, 'PATCH', `/api/customizations/${target}`, payload);

  it('GET needs a session (401), a valid id (400), a role in its customer (404) that sees licence details (403)', async () => {
    expect((await get(null, id)).statusCode).toBe(401);
    expect((await get(admin.cookie, 'abc')).statusCode).toBe(400);
    expect((await get(admin.cookie, 999_999)).statusCode).toBe(404);
    expect((await get(owner.cookie, idOfB)).statusCode).toBe(404);
    expect((await get(executive.cookie, idOfB)).statusCode).toBe(404);
    expect((await get(owner.cookie, id)).statusCode).toBe(403);
  });

  it('GET answers the customization', async () => {
    const response = await get(support.cookie, id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id,
      customerId: customerA.id,
      productName: 'Patch Server',
      versionType: 'stable',
      customConfig: LKE,
      enabled: true,
      // a support engineer reads the licences' details, and does not manage them
      can: { edit: false },
    });
    expect((await get(executive.cookie, id)).json().can).toEqual({ edit: true });
  });

  it('PATCH needs a session (401), valid input (400), a role in its customer (404) that manages licences (403)', async () => {
    const change = { versionType: 'beta', customConfig: LKE };
    expect((await patch(null, id, change)).statusCode).toBe(401);
    expect((await patch(admin.cookie, 'x', change)).statusCode).toBe(400);
    expect((await patch(admin.cookie, id, { customConfig: LKE })).statusCode).toBe(400);
    expect((await patch(admin.cookie, id, { ...change, customerId: 1 })).statusCode).toBe(400);
    expect((await patch(executive.cookie, idOfB, change)).statusCode).toBe(404);
    expect((await patch(admin.cookie, 999_999, change)).statusCode).toBe(404);
    expect((await patch(support.cookie, id, change)).statusCode).toBe(403);
    expect((await patch(owner.cookie, id, change)).statusCode).toBe(403);
    expect((await get(admin.cookie, id)).json().versionType).toBe('stable');
  });

  it('PATCH refuses an invalid configuration with its problems and changes nothing', async () => {
    const response = await patch(admin.cookie, id, {
      versionType: 'alpha',
      customConfig: { ...LKE, limits: { maxUsers: 0 } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([
      { path: 'customConfig/limits/maxUsers', message: 'must be at least 1' },
    ]);
    expect((await get(admin.cookie, id)).json().versionType).toBe('stable');
  });

  it('PATCH changes it and records what changed', async () => {
    const customConfig = { ...LKE, features: { alerts: true } };
    const response = await patch(executive.cookie, id, { versionType: 'alpha', customConfig, enabled: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, versionType: 'alpha', customConfig, enabled: false });
    expect((await get(admin.cookie, id)).json()).toMatchObject({ versionType: 'alpha', customConfig, enabled: false });
    const audit = await auditOf(customerA.id, 'updateCustomization');
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].data)).toEqual({
      customizationId: id,
      productKey: expect.any(String),
      versionType: { from: 'stable', to: 'alpha' },
      enabled: { from: true, to: false },
      customConfig: { changed: ['features'] },
    });

    // the same again changes nothing and records nothing
    const again = await patch(admin.cookie, id, { versionType: 'alpha', customConfig });
    expect(again.statusCode).toBe(200);
    expect(again.json().enabled).toBe(false);
    expect(await auditOf(customerA.id, 'updateCustomization')).toHaveLength(1);
  });
});

describe('GET /api/customers/{id}/customizations', () => {
  const list = (cookie: string | null, customerId: number | string, query = '') =>
    call(cookie, 'GET', `/api/customers/${customerId}/customizations${query}`);

  it('needs a session (401), a valid id (400), a role there (404) that sees licence details (403)', async () => {
    expect((await list(null, customerA.id)).statusCode).toBe(401);
    expect((await list(admin.cookie, 'abc')).statusCode).toBe(400);
    expect((await list(admin.cookie, customerA.id, '?productKey=a&productKey=b')).statusCode).toBe(400);
    expect((await list(executive.cookie, customerB.id)).statusCode).toBe(404);
    expect((await list(owner.cookie, customerA.id)).statusCode).toBe(403);
  });

  it("lists the customer's customizations, optionally of one product", async () => {
    const all = await list(support.cookie, customerA.id);
    expect(all.statusCode).toBe(200);
    const names = all.json().data.map((c: { productName: string }) => c.productName);
    expect(names).toContain('Graph Server');
    expect(names).toContain('Graph Toolkit');
    expect(all.json().data.every((c: { customerId: number }) => c.customerId === customerA.id)).toBe(true);
    expect(all.json().data.map((c: { can: unknown }) => c.can)).toEqual(all.json().data.map(() => ({ edit: false })));

    const ofOgma = await list(executive.cookie, customerA.id, `?productKey=${ogmaKey}`);
    expect(ofOgma.json().data).toEqual([
      expect.objectContaining({ productKey: ogmaKey, customConfig: OGMA, can: { edit: true } }),
    ]);
    expect((await list(admin.cookie, customerA.id, `?productKey=${noneKey}`)).json().data).toEqual([]);
    expect((await list(admin.cookie, customerB.id, `?productKey=${lkeKey}`)).json().data).toHaveLength(1);
  });
});
