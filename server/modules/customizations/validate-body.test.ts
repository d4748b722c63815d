import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createCustomer, createLicence, createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

/**
 * `POST /api/customizations/validate` takes spec section 7's body (versionType, customConfig,
 * enabled); the product, which picks the schema, may be left out where the customer's licences say
 * it (decision 087), and the customer where the caller's scope says it (decision 094).
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
const customers: Record<'lkeOnly' | 'twoLke' | 'mixed' | 'plain', { id: number }> = {} as never;
const keys: Record<'lke' | 'ogma' | 'plain', string> = {} as never;

const LKE = { branding: { applicationName: 'Acme Graphs', primaryColor: '#1a73e8' }, defaultLocale: 'en' };
const OGMA = { domains: ['graph.acme.example'] };

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  admin = await signedIn(t.app, 'admin');
  const lke = (await createProduct(db, { name: 'Validated Server', customizationType: 'lke' })).key;
  const lkeToo = (await createProduct(db, { name: 'Validated Server Two', customizationType: 'lke' })).key;
  const ogma = (await createProduct(db, { name: 'Validated Toolkit', customizationType: 'ogma' })).key;
  const plain = (await createProduct(db, { name: 'Validated Plain' })).key;
  const holding = async (name: keyof typeof customers, keys: string[]) => {
    customers[name] = await createCustomer(db, { name: `Validate ${name}` });
    for (const key of keys) await createLicence(db, customers[name].id, key);
  };
  await holding('lkeOnly', [lke, plain]);
  await holding('twoLke', [lke, lkeToo]);
  await holding('mixed', [lke, ogma]);
  await holding('plain', [plain]);
  Object.assign(keys, { lke, ogma, plain });
});
afterAll(async () => t?.close());

const validateAs = (cookie: string, payload: Record<string, unknown>) =>
  request(t.app, cookie, { method: 'POST', url: '/api/customizations/validate', payload });
const validate = (payload: Record<string, unknown>) => validateAs(admin.cookie, payload);
/** Spec 7's body alone: no customer, no product. */
const bare = (customConfig: unknown) => ({ versionType: 'stable', customConfig, enabled: true });
const specBody = (customerId: number, customConfig: unknown) => ({
  customerId,
  versionType: 'stable',
  customConfig,
  enabled: true,
});

describe('POST /api/customizations/validate without a product', () => {
  it("checks against the schema of the one customization type the customer's licences offer", async () => {
    const valid = await validate(specBody(customers.lkeOnly.id, LKE));
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json()).toEqual({ valid: true, problems: [] });
    const invalid = await validate(specBody(customers.lkeOnly.id, { branding: { primaryColor: 'blue' } }));
    expect(invalid.json()).toEqual({
      valid: false,
      problems: [
        { path: '/branding/applicationName', message: 'is required' },
        { path: '/branding/primaryColor', message: 'must be a colour in hexadecimal form, like #1a73e8' },
        { path: '/defaultLocale', message: 'is required' },
      ],
    });
    // an ogma configuration is no lke configuration
    expect((await validate(specBody(customers.lkeOnly.id, OGMA))).json().valid).toBe(false);
    // two products of one type: one schema, so still derivable
    expect((await validate(specBody(customers.twoLke.id, LKE))).json()).toEqual({ valid: true, problems: [] });
    // enabled may be left out too, as on create
    const { enabled: _enabled, ...withoutEnabled } = specBody(customers.lkeOnly.id, LKE);
    expect((await validate(withoutEnabled)).json().valid).toBe(true);
  });

  it('asks for the product when the licences offer several types, or none (400 on productKey)', async () => {
    const several = await validate(specBody(customers.mixed.id, LKE));
    expect(several.statusCode).toBe(400);
    expect(several.json().error.details).toEqual([
      { path: 'productKey', message: 'customization.errors.whichProduct' },
    ]);
    expect(several.json().error.message).toBe(
      'productKey: Say which product: the customer’s licences offer customizations of several types.',
    );
    const none = await validate(specBody(customers.plain.id, LKE));
    expect(none.statusCode).toBe(400);
    expect(none.json().error.details).toEqual([
      { path: 'productKey', message: 'customization.errors.notCustomizable' },
    ]);
  });

  it('uses the product named when there is one', async () => {
    const mixed = await t.app.ctx.db
      .selectFrom('licences')
      .innerJoin('products', 'products.key', 'licences.productKey')
      .select(['products.key', 'products.customizationType'])
      .where('licences.customerId', '=', customers.mixed.id)
      .execute();
    const ogmaKey = mixed.find((row) => row.customizationType === 'ogma')!.key;
    const named = await validate({ ...specBody(customers.mixed.id, OGMA), productKey: ogmaKey });
    expect(named.json()).toEqual({ valid: true, problems: [] });
  });

  it('is described so in the API document: customerId and productKey optional, and what their absence means', async () => {
    const document = (await t.app.inject({ url: '/api/docs/json' })).json();
    const operation = document.paths['/api/customizations/validate'].post;
    const schema = operation.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['versionType', 'customConfig']);
    expect(schema.properties.productKey.description).toMatch(/^Optional: .*customization type.*400 on productKey/);
    expect(schema.properties.customerId.description).toMatch(
      /^Optional: .*admin or a product manager.*account executive.*400 on customerId/,
    );
    expect(operation.description).toMatch(/customerId is optional/);
    expect(Object.keys(schema.properties)).toEqual([
      'customerId',
      'productKey',
      'versionType',
      'customConfig',
      'enabled',
    ]);
    expect(operation.description).toMatch(/productKey is optional/);
  });
});

describe('POST /api/customizations/validate without a customer (decision 094)', () => {
  it('lets an admin or a product manager validate against any product of the catalogue', async () => {
    const productManager = await signedIn(t.app, 'productManager');
    for (const cookie of [admin.cookie, productManager.cookie]) {
      // a product nobody here holds a licence of still has its schema
      const unlicensed = (await createProduct(t.app.ctx.db, { name: 'Validated Unlicensed', customizationType: 'lke' }))
        .key;
      const valid = await validateAs(cookie, { ...bare(LKE), productKey: unlicensed });
      expect(valid.statusCode, valid.body).toBe(200);
      expect(valid.json()).toEqual({ valid: true, problems: [] });
      expect((await validateAs(cookie, { ...bare(OGMA), productKey: keys.lke })).json().valid).toBe(false);
      expect((await validateAs(cookie, { ...bare(OGMA), productKey: keys.ogma })).json().valid).toBe(true);
      const unknown = await validateAs(cookie, { ...bare(LKE), productKey: 'no-such-product' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.message).toBe('Product not found');
      const plain = await validateAs(cookie, { ...bare(LKE), productKey: keys.plain });
      expect(plain.statusCode).toBe(400);
      expect(plain.json().error.details).toEqual([
        { path: 'productKey', message: 'customization.errors.notCustomizable' },
      ]);
      // the catalogue offers lke and ogma: which one must be said
      const which = await validateAs(cookie, bare(LKE));
      expect(which.statusCode).toBe(400);
      expect(which.json().error.details).toEqual([
        { path: 'productKey', message: 'customization.errors.whichProductOfAll' },
      ]);
    }
  });

  it('gives an account executive their one customer, checked as if named', async () => {
    const { db } = t.app.ctx;
    const executive = await signedIn(t.app, 'accountExecutive', { id: customers.lkeOnly.id, role: 'accountExecutive' });
    // the customer's licences name the schema: lke
    const derived = await validateAs(executive.cookie, bare(LKE));
    expect(derived.statusCode, derived.body).toBe(200);
    expect(derived.json()).toEqual({ valid: true, problems: [] });
    expect((await validateAs(executive.cookie, bare(OGMA))).json().valid).toBe(false);
    // a product that customer holds no licence of: as with the customer named
    const ogma = await validateAs(executive.cookie, { ...bare(OGMA), productKey: keys.ogma });
    expect(ogma.statusCode).toBe(404);
    expect(ogma.json().error.message).toBe('License not found');
    // a disabled membership counts as none
    const gone = await signedIn(t.app, 'accountExecutive');
    await addMembership(db, gone.id, customers.lkeOnly.id, 'accountExecutive', 'disabled');
    expect((await validateAs(gone.cookie, bare(LKE))).statusCode).toBe(403);
  });

  it('asks an account executive of several customers which one (400 on customerId)', async () => {
    const executive = await signedIn(t.app, 'accountExecutive', { id: customers.lkeOnly.id, role: 'accountExecutive' });
    await addMembership(t.app.ctx.db, executive.id, customers.mixed.id, 'accountExecutive');
    const several = await validateAs(executive.cookie, bare(LKE));
    expect(several.statusCode).toBe(400);
    expect(several.json().error.details).toEqual([{ path: 'customerId', message: 'errors.whichCustomer' }]);
    expect(several.json().error.message).toBe('customerId: Say which customer: you may do this for several customers.');
    // named, each works
    const named = await validateAs(executive.cookie, { ...bare(LKE), customerId: customers.lkeOnly.id });
    expect(named.json()).toEqual({ valid: true, problems: [] });
  });

  it('refuses those who never manage licences, as with a customer named (403)', async () => {
    const supportEngineer = await signedIn(t.app, 'supportEngineer');
    const owner = await signedIn(t.app, 'client', { id: customers.lkeOnly.id, role: 'businessOwner' });
    const nobody = await signedIn(t.app, 'accountExecutive');
    for (const [who, caller] of Object.entries({ supportEngineer, owner, nobody })) {
      const refused = await validateAs(caller.cookie, { ...bare(LKE), productKey: keys.lke });
      expect(refused.statusCode, `${who}: ${refused.body}`).toBe(403);
    }
    // the client's own customer named: the same 403
    expect((await validateAs(owner.cookie, { ...bare(LKE), customerId: customers.lkeOnly.id })).statusCode).toBe(403);
  });

  it('takes the one customization type of the catalogue when it offers one', async () => {
    const single = await createTestApp();
    try {
      await createProduct(single.app.ctx.db, { name: 'Only Server', customizationType: 'lke' });
      await createProduct(single.app.ctx.db, { name: 'Only Plain' });
      const pm = await signedIn(single.app, 'productManager');
      const post = (customConfig: unknown) =>
        request(single.app, pm.cookie, {
          method: 'POST',
          url: '/api/customizations/validate',
          payload: bare(customConfig),
        });
      expect((await post(LKE)).json()).toEqual({ valid: true, problems: [] });
      expect((await post(OGMA)).json().valid).toBe(false);
    } finally {
      await single.close();
    }
  });
});
