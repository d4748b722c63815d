import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from './statements';

/**
 * The statements better-sqlite3 keeps (docs/decisions/050): SQLite's own, so run once, in the SQLite
 * pass (the PostgreSQL pass runs on a Node that better-sqlite3's native module is not built for:
 * scripts/test.mjs). server/db/prepared.test.ts checks the queries on both databases.
 */
describe('SQLite statements', () => {
  it('are prepared once per SQL, and afresh while the kept one is being iterated', () => {
    const database = withStatementCache(new SQLite(':memory:'));
    database.exec('create table t (n integer); insert into t values (1), (2), (3)');
    const first = database.prepare('select n from t where n > ?');
    expect(database.prepare('select n from t where n > ?')).toBe(first);
    expect(first.all([1])).toEqual([{ n: 2 }, { n: 3 }]);
    const iterating = first.iterate([0]);
    iterating.next();
    const meanwhile = database.prepare('select n from t where n > ?');
    expect(meanwhile).not.toBe(first);
    expect(meanwhile.all([2])).toEqual([{ n: 3 }]);
    iterating.return?.();
    database.close();
  });
});
