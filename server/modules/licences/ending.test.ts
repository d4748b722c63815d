import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, utcToday } from '../../../common/licence-status';
import type { Role } from '../../../common/roles';
import { addMembership, createCustomer, createLicence, createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

/**
 * `GET /api/licenses/ending`: the licences ending between today and `days` from today of the
 * customers where the caller manages licences (docs/decisions/031).
 */
let t: TestApp;
const cookies = {} as Record<Role | 'disabledExecutive', string>;
const today = utcToday();
const day = (offset: number) => addDays(today, offset);
/** licence ids by name */
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  const own = await createCustomer(db, { name: 'Own Ending' });
  const other = await createCustomer(db, { name: 'Other Ending' });
  const products: string[] = [];
  for (const name of ['P1', 'P2', 'P3', 'P4', 'P5']) products.push((await createProduct(db, { name })).key);
  const licence = async (name: string, customerId: number, product: number, endDate: string) => {
    ids[name] = (await createLicence(db, customerId, products[product], { endDate, startDate: day(-400) })).id;
  };
  await licence('ownToday', own.id, 0, today);
  await licence('ownIn90', own.id, 1, day(90));
  await licence('ownIn91', own.id, 2, day(91));
  await licence('ownEndedYesterday', own.id, 3, day(-1));
  await licence('otherIn5', other.id, 0, day(5));
  await licence('otherIn5Too', other.id, 1, day(5));

  for (const role of ['admin', 'productManager', 'supportEngineer'] as const) {
    cookies[role] = (await signedIn(t.app, role)).cookie;
  }
  cookies.accountExecutive = (
    await signedIn(t.app, 'accountExecutive', { id: own.id, role: 'accountExecutive' })
  ).cookie;
  for (const role of ['businessOwner', 'technicalContact', 'endUser'] as const) {
    cookies[role] = (await signedIn(t.app, 'client', { id: own.id, role })).cookie;
  }
  // an account executive whose membership of the other customer is disabled: none of its licences
  const disabled = await signedIn(t.app, 'accountExecutive');
  await addMembership(db, disabled.id, other.id, 'accountExecutive', 'disabled');
  cookies.disabledExecutive = disabled.cookie;
});
afterAll(async () => t?.close());

const ending = (cookie: string | null, query = '') =>
  request(t.app, cookie, { method: 'GET', url: `/api/licenses/ending${query}` });
const namesOf = (body: { data: { id: number }[] }) =>
  body.data.map((row) => Object.keys(ids).find((name) => ids[name] === row.id));

describe('GET /api/licenses/ending', () => {
  it('needs a session (401) and valid input (400)', async () => {
    expect((await ending(null)).statusCode).toBe(401);
    for (const query of ['?days=0', '?days=367', '?days=abc', '?pageLength=101', '?pageOffset=-1', '?days=1&days=2']) {
      expect((await ending(cookies.admin, query)).statusCode, query).toBe(400);
    }
  });

  it('gives admins and product managers those of every customer, from today to 90 days on, soonest first', async () => {
    for (const role of ['admin', 'productManager'] as const) {
      const response = await ending(cookies[role]);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(namesOf(body), role).toEqual(['ownToday', 'otherIn5', 'otherIn5Too', 'ownIn90']);
      expect(body).toMatchObject({ offset: 0, total: 4, totalCapped: false });
    }
    const [first] = (await ending(cookies.admin)).json().data;
    expect(first).toEqual({
      id: ids.ownToday,
      customerId: expect.any(Number),
      customerName: 'Own Ending',
      productKey: expect.any(String),
      productName: 'P1',
      endDate: today,
      status: 'warning',
    });
  });

  it("gives an account executive their own customers' only, through enabled memberships", async () => {
    expect(namesOf((await ending(cookies.accountExecutive)).json())).toEqual(['ownToday', 'ownIn90']);
    expect((await ending(cookies.disabledExecutive)).json()).toMatchObject({ data: [], total: 0 });
  });

  it('gives the roles that do not manage licences an empty list', async () => {
    for (const role of ['supportEngineer', 'businessOwner', 'technicalContact', 'endUser'] as const) {
      const response = await ending(cookies[role]);
      expect(response.statusCode, role).toBe(200);
      expect(response.json(), role).toMatchObject({ data: [], total: 0 });
    }
  });

  it('takes the number of days and pages', async () => {
    expect(namesOf((await ending(cookies.admin, '?days=5')).json())).toEqual(['ownToday', 'otherIn5', 'otherIn5Too']);
    expect(namesOf((await ending(cookies.admin, '?days=91')).json())).toEqual([
      'ownToday',
      'otherIn5',
      'otherIn5Too',
      'ownIn90',
      'ownIn91',
    ]);
    const page = (await ending(cookies.admin, '?pageOffset=1&pageLength=2')).json();
    expect(namesOf(page)).toEqual(['otherIn5', 'otherIn5Too']);
    expect(page).toMatchObject({ offset: 1, total: 4 });
  });
});
