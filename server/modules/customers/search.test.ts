import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../../db';
import { nowIso } from '../../db';
import { createCustomer } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { lastEndedDate, parseCustomerFilter, searchCustomers } from './search-repo';

let t: TestApp;
let db: DB;
const TODAY = new Date('2026-06-15T10:00:00Z');

beforeAll(async () => {
  t = await createTestApp();
  db = t.app.ctx.db;
  const now = nowIso();
  // two products: a customer holds one licence per product
  await sql`insert into products (key, name, created_at, updated_at)
            values ('graph', 'Graph', ${now}, ${now}), ('toolkit', 'Toolkit', ${now}, ${now})`.execute(db);
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await db.deleteFrom('licences').execute();
  await db.deleteFrom('customers').execute();
});

let secret = 0;
async function addLicence(customerId: number, endDate: string, productKey = 'graph') {
  const now = nowIso();
  // Only the columns without a default: the rest of the licence plays no part in the search.
  await sql`insert into licences (customer_id, product_key, start_date, end_date, download_secret, created_at, updated_at)
            values (${customerId}, ${productKey}, '2020-01-01', ${endDate}, ${`secret-${++secret}`}, ${now}, ${now})`.execute(
    db,
  );
}

const search = (filter?: string, offset = 0, length = 10) =>
  searchCustomers(db, { offset, length, filter, today: TODAY });
const names = async (filter?: string) => (await search(filter)).rows.map((r) => r.name);

describe('parseCustomerFilter', () => {
  it('takes the word all! out of the text, in any case and place', () => {
    expect(parseCustomerFilter('acme all!')).toEqual({ text: 'acme', showAll: true });
    expect(parseCustomerFilter('ALL!  big   corp')).toEqual({ text: 'big corp', showAll: true });
    expect(parseCustomerFilter('  acme ')).toEqual({ text: 'acme', showAll: false });
    expect(parseCustomerFilter('wall!')).toEqual({ text: 'wall!', showAll: false });
    expect(parseCustomerFilter(undefined)).toEqual({ text: '', showAll: false });
  });
});

describe('searchCustomers', () => {
  it('lists customers by name whatever the case, then by id, with the total', async () => {
    for (const name of ['beta', 'Alpha', 'alpha', 'Charlie']) await createCustomer(db, { name });
    const result = await search();
    expect(result.rows.map((r) => r.name)).toEqual(['Alpha', 'alpha', 'beta', 'Charlie']);
    expect(result).toMatchObject({ total: 4, capped: false });
    expect(result.rows[0]).toEqual({
      id: expect.any(Number),
      name: 'Alpha',
      customerKey: expect.any(String),
      selfService: false,
      memberRole: null,
    });
    expect((await search(undefined, 1, 2)).rows.map((r) => r.name)).toEqual(['alpha', 'beta']);
  });

  it('matches a part of the name or of the customer key, whatever the case', async () => {
    await createCustomer(db, { name: 'Acme Corporation', customerKey: 'ACME000001' });
    await createCustomer(db, { name: 'Globex', customerKey: 'GLBX7K2M9Q' });
    await createCustomer(db, { name: 'Initech', customerKey: 'INIT000003' });
    expect(await names('CORPORAT')).toEqual(['Acme Corporation']);
    expect(await names('me cor')).toEqual(['Acme Corporation']);
    expect(await names('x7k2')).toEqual(['Globex']);
    expect(await names('000')).toEqual(['Acme Corporation', 'Initech']);
    expect(await search('nothing-like-this')).toEqual({ rows: [], total: 0, capped: false });
  });

  it('matches the start of the name or key for one or two characters', async () => {
    await createCustomer(db, { name: 'Acme', customerKey: 'ZZZZ000001' });
    await createCustomer(db, { name: 'Bacme', customerKey: 'ACZZ000002' });
    await createCustomer(db, { name: 'Cobalt', customerKey: 'ZZZZ000003' });
    expect(await names('ac')).toEqual(['Acme', 'Bacme']);
    expect(await names('C')).toEqual(['Cobalt']);
    expect(await names('me')).toEqual([]);
  });

  it('takes the filter as plain text: no wildcards, no search operators', async () => {
    await createCustomer(db, { name: '100% "Pure" Data' });
    await createCustomer(db, { name: '100 Pure Data' });
    await createCustomer(db, { name: 'Under_score' });
    await createCustomer(db, { name: 'UnderXscore' });
    expect(await names('0% "p')).toEqual(['100% "Pure" Data']);
    expect(await names('r_s')).toEqual(['Under_score']);
    expect(await names('pure OR under')).toEqual([]);
    expect(await names('"')).toEqual([]);
    expect(await names('%')).toEqual([]);
  });

  it('hides customers whose licences all ended more than the grace period ago, unless all! is added', async () => {
    const active = await createCustomer(db, { name: 'Active' });
    await addLicence(active.id, '2020-12-31');
    await addLicence(active.id, '2027-01-01', 'toolkit');
    const grace = await createCustomer(db, { name: 'In grace' });
    // 30 days of grace after 2026-05-16 run to 2026-06-15, today
    expect(lastEndedDate(TODAY)).toBe('2026-05-15');
    await addLicence(grace.id, '2026-05-16');
    const ended = await createCustomer(db, { name: 'Ended' });
    await addLicence(ended.id, '2026-05-15');
    await addLicence(ended.id, '2021-01-01', 'toolkit');
    await createCustomer(db, { name: 'No licence yet' });

    expect(await names()).toEqual(['Active', 'In grace', 'No licence yet']);
    expect((await search()).total).toBe(3);
    expect(await names('all!')).toEqual(['Active', 'Ended', 'In grace', 'No licence yet']);
    expect(await names('end all!')).toEqual(['Ended']);
    expect(await names('end')).toEqual([]);
  });

  it('follows every change to the licences: a new end date, a licence moved or deleted', async () => {
    const lastEnd = async (id: number) =>
      (await db.selectFrom('customers').select('lastLicenceEnd').where('id', '=', id).executeTakeFirstOrThrow())
        .lastLicenceEnd;
    const renewed = await createCustomer(db, { name: 'Renewed' });
    await addLicence(renewed.id, '2026-01-31');
    expect(await lastEnd(renewed.id)).toBe('2026-01-31');
    expect(await names()).toEqual([]);
    await db.updateTable('licences').set({ endDate: '2027-01-31' }).where('customerId', '=', renewed.id).execute();
    expect(await names()).toEqual(['Renewed']);

    // a later licence, then shortened again: the latest end is recomputed, not only raised
    await addLicence(renewed.id, '2028-12-31', 'toolkit');
    expect(await lastEnd(renewed.id)).toBe('2028-12-31');
    await db
      .updateTable('licences')
      .set({ endDate: '2025-12-31' })
      .where('customerId', '=', renewed.id)
      .where('productKey', '=', 'toolkit')
      .execute();
    expect(await lastEnd(renewed.id)).toBe('2027-01-31');

    // the running licence moves to another customer: both customers change
    const other = await createCustomer(db, { name: 'Other' });
    await db
      .updateTable('licences')
      .set({ customerId: other.id })
      .where('customerId', '=', renewed.id)
      .where('productKey', '=', 'graph')
      .execute();
    expect(await lastEnd(renewed.id)).toBe('2025-12-31');
    expect(await lastEnd(other.id)).toBe('2027-01-31');
    expect(await names()).toEqual(['Other']);

    // without licences a customer shows again, as one that has none yet
    await db.deleteFrom('licences').where('customerId', '=', renewed.id).execute();
    expect(await lastEnd(renewed.id)).toBeNull();
    expect(await names()).toEqual(['Other', 'Renewed']);
    // deleting a customer deletes its licences on the way, which the triggers survive
    await db.deleteFrom('customers').where('id', '=', other.id).execute();
    expect(await names('all!')).toEqual(['Renewed']);
  });

  it('follows renames and deletions', async () => {
    const customer = await createCustomer(db, { name: 'Old Name Ltd' });
    await db.updateTable('customers').set({ name: 'Fresh Title Ltd' }).where('id', '=', customer.id).execute();
    expect(await names('old name')).toEqual([]);
    expect(await names('fresh tit')).toEqual(['Fresh Title Ltd']);
    await db.deleteFrom('customers').where('id', '=', customer.id).execute();
    expect(await names('fresh tit')).toEqual([]);
  });

  it('counts a search up to 100 on the first pages, and further for pages beyond', async () => {
    const now = nowIso();
    const rows = Array.from({ length: 1005 }, (_, i) => ({
      name: `Bulk ${String(i).padStart(4, '0')}`,
      customerKey: `BULK${String(i).padStart(6, '0')}`,
      selfService: 0 as const,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < rows.length; i += 250)
      await db
        .insertInto('customers')
        .values(rows.slice(i, i + 250))
        .execute();
    const first = await search('bulk');
    expect(first).toMatchObject({ total: 100, capped: true });
    expect(first.rows.map((r) => r.name)).toEqual(rows.slice(0, 10).map((r) => r.name));
    expect(await search('bulk', 90)).toMatchObject({ total: 100, capped: true });
    expect(await search('bulk', 100)).toMatchObject({ total: 200, capped: true });
    const beyond = await search('bulk', 1000);
    expect(beyond).toMatchObject({ total: 1005, capped: false });
    expect(beyond.rows.map((r) => r.name)).toEqual(rows.slice(1000).map((r) => r.name));
    // a page past the last match still says how many there are
    expect(await search('bulk', 2000)).toEqual({ rows: [], total: 1005, capped: false });
    expect(await search('bulk 100', 3)).toMatchObject({ total: 5, capped: false });
  });

  it('gives the same pages whether it walks the name order or sorts the matches (many matches)', async () => {
    const now = nowIso();
    const customer = (name: string, n: number) => ({
      name,
      customerKey: `MANY${String(n).padStart(6, '0')}`,
      selfService: 0 as const,
      createdAt: now,
      updatedAt: now,
    });
    // "alpha" in nine names in ten, evenly: the walk meets its page at once. "zeta" in 1,005 names
    // that all sort after 1,200 others: the walk's 1,000 rows meet none, and the sorted matches
    // answer. Letters that the trigram index folds into ASCII ones (the Kelvin sign) and one it
    // does not (é) on the way.
    const rows = [
      ...Array.from({ length: 1200 }, (_, i) =>
        customer(`A ${i % 10 ? 'Alpha' : 'Beta'} ${String(i).padStart(4, '0')}`, i),
      ),
      ...Array.from({ length: 1005 }, (_, i) => customer(`Zeta ${String(i).padStart(4, '0')}`, 2000 + i)),
      customer('A \u212Aelvin Alpha Zeta', 4000),
      customer('A Société Alpha', 4001),
    ];
    for (let i = 0; i < rows.length; i += 250)
      await db
        .insertInto('customers')
        .values(rows.slice(i, i + 250))
        .execute();
    const [first] = await db.selectFrom('customers').select('id').orderBy('id').execute();
    await addLicence(first.id, '2020-01-01');
    for (const filter of ['alpha', 'alpha all!', 'zeta', 'zeta 00', 'kelvin alpha', 'kel', 'lph', 'soc', 'many00']) {
      for (const offset of [0, 10, 990]) {
        const walked = await searchCustomers(db, { offset, length: 10, filter, today: TODAY });
        const sorted = await searchCustomers(db, { offset, length: 10, filter, today: TODAY, plan: 'sortedMatches' });
        expect(walked, `${filter} at ${offset}`).toEqual(sorted);
      }
    }
    expect(await search('alpha')).toMatchObject({ total: 100, capped: true });
  });

  it('gives the same pages and counts for one or two characters as when it sorts every match', async () => {
    const now = nowIso();
    const customer = (name: string, customerKey: string) => ({
      name,
      customerKey,
      selfService: 0 as const,
      createdAt: now,
      updatedAt: now,
    });
    const key = (prefix: string, n: number) => `${prefix}${String(n).padStart(10 - prefix.length, '0')}`;
    // "s": 1,200 names (the name index's range) and 300 keys of names that sort first (the key index,
    // past the cap: the walk of the name order meets them at once). "t": 5 names and 150 keys of names
    // that sort last (the walk falls short: every match sorted). "q": 3 keys. "Sierra": name and key.
    const rows = [
      ...Array.from({ length: 1200 }, (_, i) => customer(`S ${String(i).padStart(4, '0')}`, key('ZZ', i))),
      ...Array.from({ length: 300 }, (_, i) => customer(`Alpha ${String(i).padStart(4, '0')}`, key('SK', i))),
      ...Array.from({ length: 150 }, (_, i) => customer(`Zulu ${String(i).padStart(4, '0')}`, key('TK', i))),
      ...Array.from({ length: 5 }, (_, i) => customer(`Tango ${i}`, key('ZY', i))),
      ...Array.from({ length: 3 }, (_, i) => customer(`Mike ${i}`, key('QK', i))),
      customer('Sierra', key('SS', 0)),
    ];
    for (let i = 0; i < rows.length; i += 250)
      await db
        .insertInto('customers')
        .values(rows.slice(i, i + 250))
        .execute();
    // some of each hidden from the default list
    const ids = await db.selectFrom('customers').select(['id', 'name']).orderBy('id').execute();
    for (const { id } of ids.filter((_, n) => n % 97 === 0)) await addLicence(id, '2020-01-01');
    for (const filter of ['s', 'S', 't', 'q', 'sk', 'sk all!', 'zz', 's all!', 'x']) {
      for (const offset of [0, 10, 100, 290, 1000]) {
        const walked = await searchCustomers(db, { offset, length: 10, filter, today: TODAY });
        const sorted = await searchCustomers(db, { offset, length: 10, filter, today: TODAY, plan: 'sortedMatches' });
        expect(walked, `${filter} at ${offset}`).toEqual(sorted);
      }
    }
    expect(await search('s')).toMatchObject({ total: 100, capped: true });
    expect((await search('q')).rows.map((r) => r.name)).toEqual(['Mike 0', 'Mike 1', 'Mike 2']);
    // 155 less the hidden: an exact count below the cap of that page (200)
    expect(await search('t', 150)).toMatchObject({ total: 153, capped: false });
  });
});
