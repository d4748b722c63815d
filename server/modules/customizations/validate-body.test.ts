import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createLicence, createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

/**
 * `POST /api/customizations/validate` takes spec section 7's body (versionType, customConfig,
 * enabled) with its customer; the product, which picks the schema, may be left out where the
 * customer's licences say it (decision 087).
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
const customers: Record<'lkeOnly' | 'twoLke' | 'mixed' | 'plain', { id: number }> = {} as never;

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
});
afterAll(async () => t?.close());

const validate = (payload: Record<string, unknown>) =>
  request(t.app, admin.cookie, { method: 'POST', url: '/api/customizations/validate', payload });
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

  it('is described so in the API document: productKey optional, and what its absence means', async () => {
    const document = (await t.app.inject({ url: '/api/docs/json' })).json();
    const operation = document.paths['/api/customizations/validate'].post;
    const schema = operation.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['customerId', 'versionType', 'customConfig']);
    expect(schema.properties.productKey.description).toMatch(/^Optional: .*customization type.*400 on productKey/);
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
