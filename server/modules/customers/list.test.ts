import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerList } from '../../../common/api/customers';
import type { MemberRole, UserType } from '../../../common/roles';
import {
  addMembership,
  createCustomer,
  createLicence,
  createProduct,
  createUser,
  login,
  signedIn,
} from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
let app: FastifyInstance;
const ids: Record<string, number> = {};

/**
 * Customers named so that their order and the searches below are easy to read. "Ended Ltd" has only
 * licences that ended years ago: the staff list leaves it out unless the filter holds all!.
 */
const CUSTOMERS = [
  { name: 'Acme Corporation', customerKey: 'ACME000001' },
  { name: 'Beta 100% Pure', customerKey: 'BETA000002' },
  { name: 'Delta "Quoted" Co', customerKey: 'DELT000003' },
  { name: 'Ended Ltd', customerKey: 'ENDD000004' },
  { name: 'globex', customerKey: 'GLBX000005' },
  { name: 'Under_score', customerKey: 'UNDR000006' },
  { name: 'UnderXscore', customerKey: 'UNDX000007' },
];

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  const db = app.ctx.db;
  const product = await createProduct(db);
  for (const customer of CUSTOMERS) ids[customer.name] = (await createCustomer(db, customer)).id;
  await createLicence(db, ids['Ended Ltd'], product.key, { startDate: '2018-01-01', endDate: '2019-01-01' });
  await createLicence(db, ids['Acme Corporation'], product.key);
});
afterAll(async () => t?.close());

const list = (cookie: string | null, query = '') =>
  request(app, cookie, { method: 'GET', url: `/api/customers${query}` });

const names = async (cookie: string, query = '') => {
  const response = await list(cookie, query);
  expect(response.statusCode, query).toBe(200);
  return (response.json() as CustomerList).data.map((c) => c.name);
};

/** A signed-in user of `type` with the given memberships. */
async function memberOf(type: UserType, memberships: [string, MemberRole, ('enabled' | 'disabled')?][]) {
  const user = await createUser(app.ctx.db, { type });
  for (const [name, role, status] of memberships) await addMembership(app.ctx.db, user.id, ids[name], role, status);
  return login(app, user.email);
}

describe('GET /api/customers', () => {
  it('answers 401 to anonymous callers', async () => {
    expect((await list(null)).statusCode).toBe(401);
    expect((await list(null, '?filter=acme')).statusCode).toBe(401);
  });

  it('answers 400 to a page that cannot be read, with the parameter named, never a 500', async () => {
    const { cookie } = await signedIn(app, 'admin');
    for (const [query, path] of [
      ['?pageOffset=-1', 'pageOffset'],
      ['?pageOffset=abc', 'pageOffset'],
      ['?pageLength=0', 'pageLength'],
      ['?pageLength=101', 'pageLength'],
      ['?pageLength=1e3', 'pageLength'],
      ['?filter=a&filter=b', 'filter'],
      [`?filter=${'x'.repeat(201)}`, 'filter'],
    ]) {
      const response = await list(cookie, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_error', details: [{ path }] });
    }
  });

  it('shows a member only the customers of their enabled memberships, and another customer never', async () => {
    // An account executive: only where their membership's role is accountExecutive
    const executive = await memberOf('accountExecutive', [
      ['Acme Corporation', 'accountExecutive'],
      ['globex', 'businessOwner'],
      ['Under_score', 'accountExecutive', 'disabled'],
    ]);
    expect(await names(executive)).toEqual(['Acme Corporation']);
    expect(await names(executive, '?filter=globex')).toEqual([]);
    expect(await names(executive, '?filter=under all!')).toEqual([]);

    // A client: the client roles of their enabled memberships, whatever the licences
    const client = await memberOf('client', [
      ['Ended Ltd', 'businessOwner'],
      ['globex', 'endUser'],
      ['Beta 100% Pure', 'technicalContact', 'disabled'],
    ]);
    const response = await list(client);
    expect(response.json()).toEqual({
      data: [
        {
          id: ids['Ended Ltd'],
          name: 'Ended Ltd',
          customerKey: 'ENDD000004',
          selfService: false,
          yourRole: 'businessOwner',
        },
        { id: ids.globex, name: 'globex', customerKey: 'GLBX000005', selfService: false, yourRole: 'endUser' },
      ],
      offset: 0,
      total: 2,
      totalCapped: false,
    });
    expect(await names(client, '?filter=GLB')).toEqual(['globex']);

    // A client without membership, and one whose only membership is disabled: nothing
    expect(await names(await memberOf('client', []))).toEqual([]);
    expect(await names(await memberOf('client', [['Acme Corporation', 'businessOwner', 'disabled']]))).toEqual([]);
  });

  it('shows admins, product managers and support engineers every customer, by name, with their type as role', async () => {
    for (const type of ['admin', 'productManager', 'supportEngineer'] as const) {
      const { cookie } = await signedIn(app, type);
      const body = (await list(cookie)).json() as CustomerList;
      expect(body.data.map((c) => c.name)).toEqual([
        'Acme Corporation',
        'Beta 100% Pure',
        'Delta "Quoted" Co',
        'globex',
        'Under_score',
        'UnderXscore',
      ]);
      expect(body).toMatchObject({ offset: 0, total: 6, totalCapped: false });
      expect(new Set(body.data.map((c) => c.yourRole))).toEqual(new Set([type]));
    }
  });

  it('pages by offset, 10 by default', async () => {
    const { cookie } = await signedIn(app, 'admin');
    const page = (await list(cookie, '?pageOffset=2&pageLength=2&filter=all!')).json() as CustomerList;
    expect(page.data.map((c) => c.name)).toEqual(['Delta "Quoted" Co', 'Ended Ltd']);
    expect(page).toMatchObject({ offset: 2, total: 7 });
    expect((await list(cookie, '?pageOffset=50')).json()).toEqual({
      data: [],
      offset: 50,
      total: 6,
      totalCapped: false,
    });
  });

  it('searches name and key whatever the case, %, _ and quotes as plain text, all! as a word', async () => {
    const { cookie } = await signedIn(app, 'supportEngineer');
    expect(await names(cookie, '?filter=CORPORAT')).toEqual(['Acme Corporation']);
    expect(await names(cookie, '?filter=glbx000')).toEqual(['globex']);
    expect(await names(cookie, '?filter=G')).toEqual(['globex']);
    expect(await names(cookie, `?filter=${encodeURIComponent('0% p')}`)).toEqual(['Beta 100% Pure']);
    expect(await names(cookie, `?filter=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await names(cookie, `?filter=${encodeURIComponent('r_s')}`)).toEqual(['Under_score']);
    expect(await names(cookie, `?filter=${encodeURIComponent('"quoted"')}`)).toEqual(['Delta "Quoted" Co']);
    expect(await names(cookie, `?filter=${encodeURIComponent("a 'quoted")}`)).toEqual([]);
    expect(await names(cookie, '?filter=ended')).toEqual([]);
    expect(await names(cookie, `?filter=${encodeURIComponent('ended ALL!')}`)).toEqual(['Ended Ltd']);
    expect(await names(cookie, `?filter=${encodeURIComponent('all!')}`)).toHaveLength(7);
  });
});
