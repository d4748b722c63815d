import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { type CompiledQuery, type Insertable, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../db';
import { createUser, signedIn } from '../../test/factories';
import { createTestApp, request, TEST_DIALECT, type TestApp } from '../../test/harness';
import { explain } from '../../test/plans';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import { listUsers } from './repo';

/** The Users page's filter and count at the edges: short filters, renames, counts past the cap. */
let t: TestApp;
let app: FastifyInstance;
let admin: { id: number; cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  admin = await signedIn(app, 'admin');
});
afterAll(async () => t?.close());

const list = async (query: string) => {
  const response = await request(app, admin.cookie, { method: 'GET', url: `/api/users?${query}` });
  expect(response.statusCode).toBe(200);
  return response.json() as { results: { id: number }[]; totalHits: number; totalHitsCapped: boolean };
};
const ids = async (filter: string) =>
  (await list(`pageLength=100&filter=${encodeURIComponent(filter)}`)).results.map((u) => u.id);

describe('GET /api/users filter', () => {
  it('matches the start of the name or e-mail for one or two characters', async () => {
    const xavier = await createUser(app.ctx.db, { fullName: 'Xavier Quint', email: 'qx.short@example.com' });
    const inner = await createUser(app.ctx.db, { fullName: 'Maxime Roux', email: 'maxime.short@example.com' });
    expect(await ids('xa')).toEqual([xavier.id]);
    expect(await ids('QX')).toEqual([xavier.id]);
    expect(await ids('ax')).not.toContain(inner.id);
    expect(await ids('axi')).toEqual([inner.id]);
  });

  it('finds a user by the new name and e-mail after a change, and no longer by the old ones', async () => {
    const user = await createUser(app.ctx.db, { fullName: 'Ophelia Oldname', email: 'ophelia.old@example.com' });
    const response = await request(app, admin.cookie, {
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      payload: { fullname: 'Ophelia Newname', email: 'ophelia.new@example.com' },
    });
    expect(response.statusCode).toBe(200);
    expect(await ids('oldname')).toEqual([]);
    expect(await ids('ophelia.old')).toEqual([]);
    expect(await ids('newname')).toEqual([user.id]);
    expect(await ids('ophelia.new@')).toEqual([user.id]);
  });

  it('answers a filter of quotes, operators and wildcards as plain text, never an error', async () => {
    for (const filter of ['"', '""', 'a"b', 'NEAR(a b)', 'x OR y', '*', '^ab', '{email}: x', '\\', '%_%']) {
      expect(await ids(filter), filter).toEqual([]);
    }
  });
});

describe('GET /api/users count', () => {
  it('counts exactly up to 100 with a filter (1,000 without), then says there are more', async () => {
    const now = nowIso();
    const rows = Array.from({ length: 1002 }, (_, i) => ({
      email: `capped-${i}@example.com`,
      fullName: `Capped Person ${i}`,
      type: 'supportEngineer' as const,
      status: 'enabled' as const,
      preferredLocale: 'en' as const,
      passwordHash: null,
      createdAt: now,
      updatedAt: now,
    }));
    await insertUsers(app.ctx.db, rows);

    expect(await list('filter=capped%20person')).toMatchObject({ totalHits: 100, totalHitsCapped: true });
    expect(await list('filter=capped%20person%2099')).toMatchObject({ totalHits: 11, totalHitsCapped: false });
    expect(await list('')).toMatchObject({ totalHits: 1000, totalHitsCapped: true });
    // A page past the first hundred counts up to the next hundred, so the total is exact again.
    expect(await list('filter=capped%20person&pageOffset=100')).toMatchObject({
      totalHits: 200,
      totalHitsCapped: true,
    });
    const beyond = await list('filter=capped%20person&pageOffset=1000');
    expect(beyond).toMatchObject({ totalHits: 1002, totalHitsCapped: false });
    expect(beyond.results).toHaveLength(2);
  });
});

/** A client user row of these tests, made at `now`. */
const clientUser = (now: string) => (fullName: string, email: string) => ({
  email,
  fullName,
  type: 'client' as const,
  status: 'enabled' as const,
  preferredLocale: 'en' as const,
  passwordHash: null,
  createdAt: now,
  updatedAt: now,
});
/** A number as these tests' names carry it: 0042. */
const n = (i: number) => String(i).padStart(4, '0');

/** Inserts the rows 250 at a time (the statement's parameters stay under SQLite's limit). */
async function insertUsers(db: AppContext['db'], rows: Insertable<Database['users']>[]) {
  for (let i = 0; i < rows.length; i += 250)
    await db
      .insertInto('users')
      .values(rows.slice(i, i + 250))
      .execute();
}

describe('listUsers for one or two characters', () => {
  it('gives the same pages and counts when it walks the id order as when it sorts every match', async () => {
    const user = clientUser(nowIso());
    // "wa": 1,100 names first in id order (past the cap of 100: the walk meets them at once); "wy": the
    // e-mail alone, one in seven of the next 2,000; "zo": 1,050 names after those (past the cap, but
    // beyond the walk's bound for the first pages: every match sorted).
    const rows = [
      ...Array.from({ length: 1100 }, (_, i) => user(`Wanda ${n(i)}`, `wanda-${n(i)}@example.com`)),
      ...Array.from({ length: 2000 }, (_, i) =>
        user(`Yves ${n(i)}`, i % 7 === 0 ? `wy-yves-${n(i)}@example.com` : `yves-${n(i)}@example.com`),
      ),
      ...Array.from({ length: 1050 }, (_, i) => user(`Zora ${n(i)}`, `zora-${n(i)}@example.com`)),
    ];
    await insertUsers(app.ctx.db, rows);
    const db = app.ctx.db;
    for (const filter of ['w', 'W', 'wa', 'wy', 'y', 'z', 'zo', 'Zo', 'q', '1']) {
      for (const offset of [0, 10, 300, 990, 1000]) {
        const walked = await listUsers(db, { offset, length: 10, filter });
        const sorted = await listUsers(db, { offset, length: 10, filter, plan: 'sortedMatches' });
        expect(walked, `${filter} at ${offset}`).toEqual(sorted);
      }
    }
    const first = await listUsers(db, { offset: 0, length: 10, filter: 'wa' });
    expect(first).toMatchObject({ total: 100, capped: true });
    expect(first.rows.map((r) => r.fullName)).toEqual(Array.from({ length: 10 }, (_, i) => `Wanda ${n(i)}`));
    const zora = await listUsers(db, { offset: 0, length: 10, filter: 'zo' });
    expect(zora.rows.map((r) => r.fullName)).toEqual(Array.from({ length: 10 }, (_, i) => `Zora ${n(i)}`));
  });
});

describe('listUsers for three characters or more', () => {
  // A database of its own, so that these users come first in id order, where the walk meets them.
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp();
    const user = clientUser(nowIso());
    // "quentin": 1,100 names and e-mails first in id order (past the cap, the walk meets them at
    // once); "ursula-": the e-mail alone of the next 2,000 (past the cap of 100, none in a name), "qzu"
    // the e-mail alone of one in 25 of them (80: under it); "vera": 1,050 names after those (past the cap, beyond the
    // walk's bound for the first pages: every match sorted).
    const rows = [
      ...Array.from({ length: 1100 }, (_, i) => user(`Quentin ${n(i)}`, `quentin-${n(i)}@example.com`)),
      ...Array.from({ length: 2000 }, (_, i) =>
        user(`Ursula ${n(i)}`, i % 25 === 0 ? `qzu-ursula-${n(i)}@example.com` : `ursula-${n(i)}@example.com`),
      ),
      ...Array.from({ length: 1050 }, (_, i) => user(`Vera ${n(i)}`, `vera-${n(i)}@example.com`)),
    ];
    await insertUsers(own.app.ctx.db, rows);
  });
  afterAll(async () => own?.close());

  it('gives the same pages and counts as when it sorts every match', async () => {
    const db = own.app.ctx.db;
    const filters = [
      ...['quentin', 'QUENTIN', 'uen', 'entin 0', 'quentin-00', 'tin 01'],
      ...['ursula-', 'rsula', 'qzu', 'ursula 0', 'la-000'],
      ...['vera', 'Vera 1', 'era', '100', '0001', 'xyz', 'é'.repeat(3)],
    ];
    for (const filter of filters) {
      for (const offset of [0, 10, 300, 990, 1000, 1990]) {
        const planned = await listUsers(db, { offset, length: 10, filter });
        const sorted = await listUsers(db, { offset, length: 10, filter, plan: 'sortedMatches' });
        expect(planned, `${filter} at ${offset}`).toEqual(sorted);
      }
    }
    const quentin = await listUsers(db, { offset: 0, length: 10, filter: 'quentin' });
    expect(quentin).toMatchObject({ total: 100, capped: true });
    expect(quentin.rows.map((r) => r.fullName)).toEqual(Array.from({ length: 10 }, (_, i) => `Quentin ${n4(i)}`));
    // the e-mail alone past the cap, names and e-mails both under it
    expect(await listUsers(db, { offset: 0, length: 10, filter: 'ursula-' })).toMatchObject({
      total: 100,
      capped: true,
    });
    expect(await listUsers(db, { offset: 0, length: 10, filter: 'qzu' })).toMatchObject({
      total: 80,
      capped: false,
    });
    const vera = await listUsers(db, { offset: 1000, length: 10, filter: 'vera' });
    expect(vera).toMatchObject({ total: 1050, capped: false });
    expect(vera.rows.map((r) => r.fullName)).toEqual(Array.from({ length: 10 }, (_, i) => `Vera ${n4(1000 + i)}`));
  });

  it('reads its pages and counts from the indexes in order, stopping early', async () => {
    const db = own.app.ctx.db;
    if (TEST_DIALECT === 'postgres') {
      // the visibility map, which an index-only scan reads instead of the rows
      await sql`vacuum analyze users`.execute(db);
      // one or two letters: the names' count reads the prefix index alone
      const [count] = await statementsOf(db, 'qu');
      expect(await explain(db, count)).toMatch(/Index Only Scan using users_full_name_prefix/);
    } else {
      // the FTS5 table in rowid order, no sort, for the page; a phrase (three to five characters)
      // counted in the FTS5 table alone
      const [page, count] = await statementsOf(db, 'uenti');
      const pagePlan = await explain(db, page);
      expect(pagePlan).toMatch(/users_search VIRTUAL TABLE INDEX/);
      expect(pagePlan).not.toMatch(/TEMP B-TREE/);
      expect(await explain(db, count)).not.toMatch(/SEARCH users/);
    }
  });
});

const n4 = (i: number) => String(i).padStart(4, '0');

/** The statements listUsers runs for a first page of `filter`, compiled as the database received them. */
async function statementsOf(db: DB, filter: string): Promise<CompiledQuery[]> {
  const statements: CompiledQuery[] = [];
  const spy: KyselyPlugin = {
    transformQuery: ({ node }) => {
      statements.push(db.getExecutor().compileQuery(node, { queryId: 'plan' }));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await listUsers(db.withPlugin(spy), { offset: 0, length: 10, filter });
  return statements;
}
