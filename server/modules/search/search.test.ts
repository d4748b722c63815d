import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResults } from '../../../common/api/search';
import {
  addMembership,
  createCustomer,
  createLicence,
  createProduct,
  createUser,
  createVersion,
  login,
  signedIn,
} from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { parseLicenceNumber, parseVersion } from './service';

let t: TestApp;
let app: FastifyInstance;
const ids: Record<string, number> = {};
let licenceOfManaged = 0;
let licenceOfOther = 0;
const cookies: Record<string, string> = {};

/**
 * Two customers: "Zephyr Managed" whose account executive signs in below, and "Zephyr Elsewhere"
 * whom they do not manage; each with a member. Names share "zephyr" so that one search finds both.
 */
beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  const db = app.ctx.db;
  const product = await createProduct(db, { key: 'zephyr-graph', name: 'Zephyr Graph' });
  await createVersion(db, product.key, { semVer: '7.3.1' });
  await createVersion(db, product.key, { semVer: '7.30.0' });
  await createVersion(db, product.key, { semVer: '8.0.0' });
  ids.managed = (await createCustomer(db, { name: 'Zephyr Managed', customerKey: 'ZEPH000001' })).id;
  ids.other = (await createCustomer(db, { name: 'Zephyr Elsewhere', customerKey: 'ZEPH000002' })).id;
  ids.wild = (await createCustomer(db, { name: 'Wild 100% _under', customerKey: 'WILD000003' })).id;
  ids.plain = (await createCustomer(db, { name: 'Wild 1000 xunder', customerKey: 'WILD000004' })).id;
  licenceOfManaged = (await createLicence(db, ids.managed, product.key)).id;
  licenceOfOther = (await createLicence(db, ids.other, product.key)).id;
  const managedMember = await createUser(db, { fullName: 'Zoe Zephyrine', email: 'zoe.managed@example.com' });
  await addMembership(db, managedMember.id, ids.managed, 'technicalContact');
  const otherMember = await createUser(db, { fullName: 'Zack Zephyrus', email: 'zack.other@example.com' });
  await addMembership(db, otherMember.id, ids.other, 'businessOwner');
  await createUser(db, { fullName: 'Zelda Zephyra', email: 'zelda.staff@example.com', type: 'supportEngineer' });

  const executive = await createUser(db, { type: 'accountExecutive', fullName: 'Executive One' });
  await addMembership(db, executive.id, ids.managed, 'accountExecutive');
  cookies.accountExecutive = await login(app, executive.email);
  for (const type of ['admin', 'productManager', 'supportEngineer'] as const)
    cookies[type] = (await signedIn(app, type)).cookie;
  cookies.client = (await signedIn(app, 'client', { id: ids.managed, role: 'businessOwner' })).cookie;
});
afterAll(async () => t?.close());

const search = (cookie: string | null, query: string) =>
  request(app, cookie, { method: 'GET', url: `/api/search?${query}` });

async function found(cookie: string, q: string, limit?: number) {
  const response = await search(cookie, `q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`);
  expect(response.statusCode, q).toBe(200);
  return (response.json() as SearchResults).data.map((r) => `${r.kind}: ${r.title} -> ${r.path}`);
}

describe('GET /api/search', () => {
  it('answers 401 to anonymous callers and 403 to a client', async () => {
    expect((await search(null, 'q=zephyr')).statusCode).toBe(401);
    const refused = await search(cookies.client, 'q=zephyr');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
  });

  it('answers 400 naming the parameter to a text too short or too long and to a limit out of range', async () => {
    for (const [query, path] of [
      ['', 'q'],
      ['q=a', 'q'],
      ['q=%20a%20', 'q'],
      [`q=${'x'.repeat(101)}`, 'q'],
      ['q=ab&q=cd', 'q'],
      ['q=ab&limit=0', 'limit'],
      ['q=ab&limit=21', 'limit'],
      ['q=ab&limit=1e1', 'limit'],
    ]) {
      const response = await search(cookies.admin, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error, query).toMatchObject({ code: 'validation_error', details: [{ path }] });
    }
  });

  it('finds for an admin customers, every user, licences, products and versions, grouped by kind', async () => {
    expect(await found(cookies.admin, 'zephyr')).toEqual([
      `customer: Zephyr Elsewhere -> /accounts/${ids.other}`,
      `customer: Zephyr Managed -> /accounts/${ids.managed}`,
      'user: Zack Zephyrus -> /users?q=zack.other%40example.com',
      'user: Zelda Zephyra -> /users?q=zelda.staff%40example.com',
      'user: Zoe Zephyrine -> /users?q=zoe.managed%40example.com',
      'product: Zephyr Graph -> /products/zephyr-graph',
    ]);
    expect(await found(cookies.admin, `#${licenceOfOther}`)).toEqual([
      `licence: #${licenceOfOther} Zephyr Graph -> /accounts/${ids.other}`,
    ]);
    expect(await found(cookies.admin, 'zephyr graph 7.3')).toEqual([
      'version: Zephyr Graph 7.3.1 -> /products/zephyr-graph',
      'version: Zephyr Graph 7.30.0 -> /products/zephyr-graph',
    ]);
  });

  it('gives each result a line of context', async () => {
    const response = await search(cookies.admin, 'q=ZEPH000001');
    expect((response.json() as SearchResults).data).toEqual([
      {
        kind: 'customer',
        key: String(ids.managed),
        title: 'Zephyr Managed',
        context: 'ZEPH000001',
        path: `/accounts/${ids.managed}`,
      },
    ]);
  });

  it('finds for an account executive only their customers, their people and their licences', async () => {
    expect(await found(cookies.accountExecutive, 'zephyr')).toEqual([
      `customer: Zephyr Managed -> /accounts/${ids.managed}`,
      `member: Zoe Zephyrine -> /accounts/${ids.managed}?members-q=zoe.managed%40example.com`,
    ]);
    expect(await found(cookies.accountExecutive, `#${licenceOfManaged}`)).toEqual([
      `licence: #${licenceOfManaged} Zephyr Graph -> /accounts/${ids.managed}`,
    ]);
    expect(await found(cookies.accountExecutive, `#${licenceOfOther}`)).toEqual([]);
    expect(await found(cookies.accountExecutive, 'zack')).toEqual([]);
  });

  it('finds for a support engineer every customer and the members of every customer, not staff or products', async () => {
    expect(await found(cookies.supportEngineer, 'zephyr')).toEqual([
      `customer: Zephyr Elsewhere -> /accounts/${ids.other}`,
      `customer: Zephyr Managed -> /accounts/${ids.managed}`,
      `member: Zack Zephyrus -> /accounts/${ids.other}?members-q=zack.other%40example.com`,
      `member: Zoe Zephyrine -> /accounts/${ids.managed}?members-q=zoe.managed%40example.com`,
    ]);
    expect(await found(cookies.supportEngineer, 'zephyr graph 8')).toEqual([]);
  });

  it('finds for a product manager customers, licences and the catalogue, no people', async () => {
    expect(await found(cookies.productManager, 'zephyr')).toEqual([
      `customer: Zephyr Elsewhere -> /accounts/${ids.other}`,
      `customer: Zephyr Managed -> /accounts/${ids.managed}`,
      'product: Zephyr Graph -> /products/zephyr-graph',
    ]);
    expect(await found(cookies.productManager, 'v8')).toEqual([
      'version: Zephyr Graph 8.0.0 -> /products/zephyr-graph',
    ]);
  });

  it('reads the text as plain text: LIKE wildcards, quotes and FTS operators match themselves', async () => {
    for (const q of ['100%', '0% _u', '% _under']) {
      expect(await found(cookies.admin, q), q).toEqual([`customer: Wild 100% _under -> /accounts/${ids.wild}`]);
    }
    expect(await found(cookies.admin, '_under')).toEqual([`customer: Wild 100% _under -> /accounts/${ids.wild}`]);
    for (const q of ['"zephyr', 'zephyr OR wild', 'NEAR(a b)', "ze'; --", '\\%', '%%', '__']) {
      expect(await found(cookies.admin, q), q).toEqual([]);
    }
  });

  it('matches the start for two characters and stops at the limit of each kind', async () => {
    expect(await found(cookies.admin, 'ze')).toContain(`customer: Zephyr Managed -> /accounts/${ids.managed}`);
    expect(await found(cookies.admin, 'ph')).not.toContain(`customer: Zephyr Managed -> /accounts/${ids.managed}`);
    const limited = await found(cookies.admin, 'zephyr', 1);
    expect(limited.filter((r) => r.startsWith('customer:'))).toHaveLength(1);
    expect(limited.filter((r) => r.startsWith('user:'))).toHaveLength(1);
  });
});

describe('reading the text', () => {
  it('takes a licence number with or without #', () => {
    expect(parseLicenceNumber('42')).toBe(42);
    expect(parseLicenceNumber('#42')).toBe(42);
    expect(parseLicenceNumber('0')).toBeNull();
    expect(parseLicenceNumber('4294967296')).toBeNull();
    expect(parseLicenceNumber('42a')).toBeNull();
  });

  it('takes the start of a version as the last word, after words of a product', () => {
    expect(parseVersion('2.1')).toEqual({ semVer: '2.1', productText: null });
    expect(parseVersion('v2.1.0-beta')).toEqual({ semVer: '2.1.0-beta', productText: null });
    expect(parseVersion('graph server 2')).toEqual({ semVer: '2', productText: 'graph server' });
    expect(parseVersion('graph')).toBeNull();
  });
});
