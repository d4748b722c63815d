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
  const cachedPrepare = (source: string) => {
    const kept = statements.get(source);
    if (kept && !kept.busy) return kept;
    const statement = prepare(source);
    if (!kept && statements.size < MAX_CACHED_STATEMENTS) statements.set(source, statement);
    return statement;
  };
  const bound = boundMethods(database);
  return new Proxy(database, {
    get: (target, property, receiver) => (property === 'prepare' ? cachedPrepare : bound(property, receiver)),
  });
}

/**
 * The properties of `target` as a proxy hands them over: its methods bound to it (native ones refuse
 * another `this`), each bound once rather than on every access (decision 093).
 */
function boundMethods(target: object) {
  const methods = new Map<PropertyKey, { method: unknown; bound: unknown }>();
  return (property: PropertyKey, receiver: unknown): unknown => {
    const value = Reflect.get(target, property, receiver) as unknown;
    if (typeof value !== 'function') return value;
    const kept = methods.get(property);
    if (kept?.method === value) return kept.bound;
    const bound = (value as (...args: unknown[]) => unknown).bind(target);
    methods.set(property, { method: value, bound });
    return bound;
  };
}

const TRANSACTION_CONTROL = /^\s*(begin|start|commit|rollback|savepoint|release|set)\b/i;

/**
 * A pool whose clients send Kysely's queries as named prepared statements: PostgreSQL parses and
 * plans each one once per connection (node-postgres remembers which it has prepared), then binds
 * new parameters to it. Transaction control and anything not plain SQL text go as they are.
 */
export function withNamedStatements(pool: pg.Pool): Pick<pg.Pool, 'connect' | 'end'> {
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
  // One proxy per client, made when the pool first hands it over: a client is checked out on every
  // request, and a proxy with its own bound methods each time was work for nothing.
  const proxies = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const proxyOf = (client: pg.PoolClient) => {
    const statements = new Set<string>();
    const query = (text: unknown, values?: unknown[]) => {
      if (typeof text !== 'string' || TRANSACTION_CONTROL.test(text)) {
        return (client.query as (...args: unknown[]) => unknown)(text, values);
      }
      const name = nameOf(text);
      if (!statements.has(name)) {
        if (statements.size >= MAX_CACHED_STATEMENTS) return client.query(text, values);
        statements.add(name);
      }
      return client.query({ name, text, values });
    };
    const bound = boundMethods(client);
    return new Proxy(client, {
      get: (target, property, receiver) => (property === 'query' ? query : bound(property, receiver)),
    });
  };
  return {
    connect: (async () => {
      const client = await pool.connect();
      let proxy = proxies.get(client);
      if (!proxy) {
        proxy = proxyOf(client);
        proxies.set(client, proxy);
      }
      return proxy;
    }) as pg.Pool['connect'],
    end: () => pool.end(),
  };
}
