import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_DIALECT, type TestApp } from '../test/harness';
import { createCustomer, createUser } from '../test/factories';
import { type DB, openDatabase } from '.';
import { sql } from 'kysely';
import { preparedQuery } from './prepared';

/** Queries compiled once, and the statements the drivers keep (docs/decisions/050). */
let t: TestApp;
const executed: { sql: string; parameters: readonly unknown[] }[] = [];

beforeAll(async () => {
  t = await createTestApp({}, {}, {}, { onQuery: (sql, parameters) => executed.push({ sql, parameters }) });
});
afterAll(async () => t?.close());

let builds = 0;
const usersOfType = preparedQuery<{ type: 'admin' | 'client'; after: number }>()((db: DB, param) => {
  builds++;
  return db
    .selectFrom('users')
    .select(['id', 'fullName', 'type'])
    .where('type', '=', param('type'))
    .where('id', '>', param('after'))
    .where('status', '=', 'enabled')
    .orderBy('id');
});
const rename = preparedQuery<{ id: number; name: string }>()((db: DB, param) =>
  db
    .updateTable('customers')
    .set({ name: param('name') })
    .where('id', '=', param('id')),
);

describe('a prepared query', () => {
  it('answers what the same query built each time answers, with each call’s values, compiled once', async () => {
    const admin = await createUser(t.app.ctx.db, { type: 'admin', fullName: 'Prepared Admin' });
    const client = await createUser(t.app.ctx.db, { type: 'client', fullName: 'Prepared Client' });
    for (const [type, after] of [
      ['admin', 0],
      ['client', 0],
      ['client', client.id],
    ] as const) {
      const built = await t.app.ctx.db
        .selectFrom('users')
        .select(['id', 'fullName', 'type'])
        .where('type', '=', type)
        .where('id', '>', after)
        .where('status', '=', 'enabled')
        .orderBy('id')
        .execute();
      expect(await usersOfType(t.app.ctx.db, { type, after })).toEqual(built);
    }
    expect((await usersOfType(t.app.ctx.db, { type: 'admin', after: 0 })).map((u) => u.id)).toContain(admin.id);
    expect(builds).toBe(1);
    // the values travel as parameters, never in the SQL
    const last = executed.at(-1)!;
    expect(last.sql).not.toContain('admin');
    expect(last.parameters).toEqual(['admin', 0, 'enabled']);
  });

  it('runs in a transaction, and counts the rows a write changed', async () => {
    const { id } = await createCustomer(t.app.ctx.db, { name: 'Before' });
    await t.app.ctx.db.transaction().execute(async (trx) => {
      expect(await rename.affected(trx, { id, name: 'After' })).toBe(1);
    });
    const row = await t.app.ctx.db.selectFrom('customers').select('name').where('id', '=', id).executeTakeFirst();
    expect(row?.name).toBe('After');
    expect(await rename.affected(t.app.ctx.db, { id: 999_999, name: 'Nobody' })).toBe(0);
  });

  it('is compiled once for a database and its transactions, again for a database with another plugin', async () => {
    const before = builds;
    await usersOfType(t.app.ctx.db, { type: 'admin', after: 0 });
    await t.app.ctx.db.transaction().execute((trx) => usersOfType(trx, { type: 'admin', after: 0 }));
    expect(builds).toBe(before);
    let transformed = 0;
    const withPlugin = t.app.ctx.db.withPlugin({
      transformQuery: (args) => (transformed++, args.node),
      transformResult: async (args) => args.result,
    });
    await usersOfType(withPlugin, { type: 'admin', after: 0 });
    await usersOfType(withPlugin, { type: 'admin', after: 0 });
    expect(builds).toBe(before + 1);
    expect(transformed).toBe(1);
  });
});

describe('the statements the driver keeps', () => {
  it(`serve repeated queries correctly on ${TEST_DIALECT}, whatever their values`, async () => {
    const names = Array.from({ length: 30 }, (_, i) => `Kept ${i}`);
    const ids = [];
    for (const name of names) ids.push((await createCustomer(t.app.ctx.db, { name })).id);
    for (let round = 0; round < 3; round++) {
      for (const [i, id] of ids.entries()) {
        const row = await t.app.ctx.db.selectFrom('customers').select('name').where('id', '=', id).executeTakeFirst();
        expect(row?.name).toBe(names[i]);
      }
    }
  });
});

// Needs a PostgreSQL server: run in both passes of `npm test` when TEST_DATABASE_URL is set (as in CI).
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL statements', () => {
  it('are prepared once per connection and reused by name', async () => {
    const handle = openDatabase(process.env.TEST_DATABASE_URL!);
    try {
      await handle.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 3; i++)
          expect((await sql<{ n: number }>`select ${i}::int as n`.execute(trx)).rows).toEqual([{ n: i }]);
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_prepared_statements where statement = 'select $1::int as n'
        `.execute(trx);
        expect(rows[0].n).toBe(1);
      });
    } finally {
      await handle.close();
    }
  });
});
