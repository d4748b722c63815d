import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/**
 * Queries compiled once (docs/decisions/050). Kysely builds a query's tree, runs its plugins over it
 * and compiles it to SQL on every call: for the profile that was most of the request's time. A
 * prepared query is built once per dialect with placeholders where its values go; each call only
 * puts the values in place and executes the SQL (whose statement the driver also keeps,
 * server/db/statements.ts). The builder keeps Kysely's types: the rows are those it selects.
 *
 *   const findSession = preparedQuery<{ id: string }>()((db, param) =>
 *     db.selectFrom('sessions').select('userId').where('id', '=', param('id')));
 *   const rows = await findSession(db, { id });
 *
 * A placeholder stands for one value. Anything that changes the SQL's shape (an `in` list whose
 * length varies, an optional condition) cannot be a placeholder: write one prepared query per shape,
 * or an ordinary query.
 */

const PLACEHOLDER = Symbol('placeholder');
interface Placeholder {
  readonly [PLACEHOLDER]: string;
}
const isPlaceholder = (value: unknown): value is Placeholder =>
  typeof value === 'object' && value !== null && PLACEHOLDER in value;

/** Values kept under a path of objects (weakly: a database that goes takes its entries with it). */
class CompilationCache<V> {
  private readonly root = new WeakMap<object, Node<V>>();
  get(path: object[]): V | undefined {
    let level: WeakMap<object, Node<V>> | undefined = this.root;
    let node: Node<V> | undefined;
    for (const part of path) {
      node = level?.get(part);
      level = node?.next;
    }
    return node?.value;
  }
  set(path: object[], value: V): void {
    let level = this.root;
    let node: Node<V> | undefined;
    for (const part of path) {
      node = level.get(part);
      if (!node) {
        node = { next: new WeakMap() };
        level.set(part, node);
      }
      level = node.next;
    }
    if (node) node.value = value;
  }
}
interface Node<V> {
  value?: V;
  next: WeakMap<object, Node<V>>;
}

export function preparedQuery<P extends Record<string, unknown>>() {
  return <DB, R>(build: (db: Kysely<DB>, param: <K extends keyof P & string>(name: K) => P[K]) => Compilable<R>) => {
    // One compilation per dialect and set of plugins (which transform the query as it compiles): a
    // transaction has its database's adapter and plugins, a database given another plugin does not.
    const compiled = new CompilationCache<CompiledQuery<R>>();
    const run = async (db: Kysely<DB>, params: P): Promise<QueryResult<R>> => {
      const executor = db.getExecutor();
      const key = [executor.adapter, ...executor.plugins];
      let query = compiled.get(key);
      if (!query) {
        query = build(db, (name) => ({ [PLACEHOLDER]: name }) as never).compile();
        if (!query.parameters.some(isPlaceholder) && Object.keys(params).length > 0) {
          throw new Error('a prepared query uses none of its parameters: are they placeholders?');
        }
        compiled.set(key, query);
      }
      const parameters = query.parameters.map((value) => (isPlaceholder(value) ? params[value[PLACEHOLDER]] : value));
      return db.executeQuery<R>({ ...query, parameters });
    };
    return Object.assign((db: Kysely<DB>, params: P) => run(db, params).then((result) => result.rows), {
      /** the first row, or undefined */
      first: async (db: Kysely<DB>, params: P): Promise<R | undefined> => (await run(db, params)).rows[0],
      /** how many rows an update or delete changed */
      affected: async (db: Kysely<DB>, params: P): Promise<number> =>
        Number((await run(db, params)).numAffectedRows ?? 0),
    });
  };
}
