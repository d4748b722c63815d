import crypto from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';

/**
 * Prepared statements kept for reuse (docs/decisions/050). Kysely's drivers prepare every query
 * afresh: better-sqlite3 compiles the SQL each time, node-postgres sends it to be parsed and planned
 * each time. A portal runs a few hundred distinct statements, so each is prepared once per
 * connection and reused with new parameters.
 */

/** Distinct statements kept per connection; beyond that (SQL built with a varying shape) none is kept. */
const MAX_CACHED_STATEMENTS = 1000;

/**
 * A better-sqlite3 database whose `prepare` answers the statement it prepared before for the same
 * SQL. A statement still being iterated (a streamed query) is busy: a fresh one is prepared then.
 * SQLite itself recompiles a kept statement when the schema changes.
 */
export function withStatementCache(database: SQLite.Database): SQLite.Database {
  const statements = new Map<string, SQLite.Statement>();
  const prepare = database.prepare.bind(database);
  return new Proxy(database, {
    get(target, property, receiver) {
      if (property !== 'prepare') {
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      }
      return (source: string) => {
        const kept = statements.get(source);
        if (kept && !kept.busy) return kept;
        const statement = prepare(source);
        if (!kept && statements.size < MAX_CACHED_STATEMENTS) statements.set(source, statement);
        return statement;
      };
    },
  });
}

const TRANSACTION_CONTROL = /^\s*(begin|start|commit|rollback|savepoint|release|set)\b/i;

/**
 * A pool whose clients send Kysely's queries as named prepared statements: PostgreSQL parses and
 * plans each one once per connection (node-postgres remembers which it has prepared), then binds
 * new parameters to it. Transaction control and anything not plain SQL text go as they are.
 */
export function withNamedStatements(pool: pg.Pool): Pick<pg.Pool, 'connect' | 'end'> {
  const named = new WeakMap<pg.PoolClient, Set<string>>();
  // The name of each SQL text, hashed once rather than on every query.
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      name = `k${crypto.createHash('sha1').update(text).digest('hex')}`;
      if (names.size < MAX_CACHED_STATEMENTS) names.set(text, name);
    }
    return name;
  };
  return {
    connect: (async () => {
      const client = await pool.connect();
      let kept = named.get(client);
      if (!kept) {
        kept = new Set();
        named.set(client, kept);
      }
      const statements = kept;
      return new Proxy(client, {
        get(target, property, receiver) {
          if (property !== 'query') {
            const value = Reflect.get(target, property, receiver) as unknown;
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          }
          return (text: unknown, values?: unknown[]) => {
            if (typeof text !== 'string' || TRANSACTION_CONTROL.test(text)) {
              return (target.query as (...args: unknown[]) => unknown)(text, values);
            }
            const name = nameOf(text);
            if (!statements.has(name)) {
              if (statements.size >= MAX_CACHED_STATEMENTS) return target.query(text, values);
              statements.add(name);
            }
            return target.query({ name, text, values });
          };
        },
      });
    }) as pg.Pool['connect'],
    end: () => pool.end(),
  };
}
