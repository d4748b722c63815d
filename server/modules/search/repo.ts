import { type Compilable, type SqlBool, sql } from 'kysely';
import type { MemberRole, UserType } from '../../../common/roles';
import type { DB } from '../../db';
import { preparedQuery } from '../../db/prepared';
import { containsPattern, firstMatchIds, isPostgres, likePattern } from '../../db/search';
import { memberCustomerIds } from '../members/repo';

/**
 * The queries of the staff's search box (GET /api/search, docs/decisions/079-staff-search.md). Each
 * reads at most `limit` rows of its kind through an index that stops after them, whatever the number
 * of rows and of matches: no sort of every match, no count.
 *
 * Every query is compiled once per shape (decision 093): the box asks on every keystroke, and Kysely
 * building them again each time was a fifth of the request. A shape is what changes the SQL: the
 * scope (every customer, or an account executive's memberships of a set of roles), the number of ids
 * of an `in` list (at most the limit, 20), a version's optional product words. Texts, ids and limits
 * are placeholders; the SQL is the one the builder wrote for them before.
 */

/** Customers of an account executive's memberships (server/scope.ts), or every customer. */
export type Scope = { every: true } | { memberId: number; roles: readonly MemberRole[] };

type Param<P> = <K extends keyof P & string>(name: K) => P[K];

/** The scope's key among the compiled queries: `every`, or the roles of the memberships. */
const scopeKey = (scope: Scope) => ('every' in scope ? 'every' : scope.roles.join(','));

/** The roles of a scope's key. */
const rolesOf = (key: string) => key.split(',') as MemberRole[];

/** `column` is one of the customers of the member's memberships of those roles. */
const inScope = (
  db: DB,
  roles: readonly MemberRole[],
  memberId: number,
  column: 'customers.id' | 'memberships.customerId' | 'licences.customerId',
) => sql<SqlBool>`${sql.ref(column)} in (${memberCustomerIds(db, { memberId, roles })})`;

/** One prepared query per shape, compiled the first time that shape is asked for. */
function byShape<Q>(make: (key: string) => Q): (key: string) => Q {
  const queries = new Map<string, Q>();
  return (key) => {
    let query = queries.get(key);
    if (!query) {
      query = make(key);
      queries.set(key, query);
    }
    return query;
  };
}

/**
 * A query whose `in` list takes `ids`: one compiled query per number of ids, each id a placeholder,
 * and the member's id of a scope a placeholder too.
 */
function withIds<R>(build: (db: DB, ids: number[], memberId: number) => Compilable<R>) {
  const queries = byShape((count) =>
    preparedQuery<Record<string, number>>()((db: DB, param) =>
      build(
        db,
        Array.from({ length: Number(count) }, (_, i) => param(`id${i}`)),
        param('memberId'),
      ),
    ),
  );
  return (db: DB, ids: readonly number[], memberId = 0) =>
    queries(String(ids.length))(db, { ...Object.fromEntries(ids.map((id, i) => [`id${i}`, id])), memberId });
}

type TextParams = { memberId: number; pattern: string; limit: number };

/** A member's customers whose name or key holds the text. */
const memberCustomerMatches = byShape((rolesKey) =>
  preparedQuery<TextParams>()((db: DB, param: Param<TextParams>) =>
    db
      .selectFrom('customers')
      .select('customers.id')
      .where(inScope(db, rolesOf(rolesKey), param('memberId'), 'customers.id'))
      .where(containsPattern(['customers.name', 'customers.customerKey'], param('pattern')))
      .limit(param('limit')),
  ),
);

const customersById = withIds((db, ids) =>
  db
    .selectFrom('customers')
    .select(['customers.id', 'customers.name', 'customers.customerKey'])
    .where('customers.id', 'in', ids),
);

export async function findCustomers(db: DB, text: string, limit: number, scope: Scope) {
  // A member's customers are few: their memberships drive the query, each customer then tested.
  const ids =
    'every' in scope
      ? await firstMatchIds(db, 'customers', text, limit)
      : (
          await memberCustomerMatches(scopeKey(scope))(db, {
            memberId: scope.memberId,
            pattern: likePattern(text),
            limit,
          })
        ).map((row) => row.id);
  if (ids.length === 0) return [];
  return customersById(db, ids);
}

const usersById = withIds((db, ids) =>
  db
    .selectFrom('users')
    .select(['users.id', 'users.fullName', 'users.email', 'users.type'])
    .where('users.id', 'in', ids),
);

export async function findUsers(db: DB, text: string, limit: number) {
  const ids = await firstMatchIds(db, 'users', text, limit);
  if (ids.length === 0) return [];
  return usersById(db, ids) as Promise<{ id: number; fullName: string; email: string; type: UserType }[]>;
}

interface MemberRow {
  userId: number;
  fullName: string;
  email: string;
  customerId: number;
  customerName: string;
  role: MemberRole;
}

/** Users who hold a membership. */
const A_MEMBER = {
  name: 'member',
  where: sql<SqlBool>`exists (select 1 from memberships where memberships.user_id = ${sql.ref('users.id')})`,
};

/** People of a member's customers whose name or e-mail holds the text. */
const memberPeopleMatches = byShape((rolesKey) =>
  preparedQuery<TextParams>()((db: DB, param: Param<TextParams>) =>
    db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.userId')
      .select('users.id')
      .distinct()
      .where(inScope(db, rolesOf(rolesKey), param('memberId'), 'memberships.customerId'))
      .where(containsPattern(['users.fullName', 'users.email'], param('pattern')))
      .limit(param('limit')),
  ),
);

/** The memberships of the people found, in the customers of the scope: per scope and number of people. */
const membershipsOf = byShape((scope) =>
  withIds((db, ids, memberId) => {
    let memberships = db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.userId')
      .innerJoin('customers', 'customers.id', 'memberships.customerId')
      .select([
        'users.id as userId',
        'users.fullName',
        'users.email',
        'customers.id as customerId',
        'customers.name as customerName',
        'memberships.role',
      ])
      .where('memberships.userId', 'in', ids)
      .orderBy('memberships.userId')
      .orderBy('memberships.customerId');
    if (scope !== 'every')
      memberships = memberships.where(inScope(db, rolesOf(scope), memberId, 'memberships.customerId'));
    return memberships;
  }),
);

/**
 * People who are members of the customers in scope, one row per person (their first membership
 * there). Every customer: users found through the search index who hold a membership; a member's
 * customers: the memberships of those customers, each person tested.
 */
export async function findMembers(db: DB, text: string, limit: number, scope: Scope): Promise<MemberRow[]> {
  const userIds =
    'every' in scope
      ? await firstMatchIds(db, 'users', text, limit, A_MEMBER)
      : (
          await memberPeopleMatches(scopeKey(scope))(db, {
            memberId: scope.memberId,
            pattern: likePattern(text),
            limit,
          })
        ).map((row) => row.id);
  if (userIds.length === 0) return [];
  const rows = await membershipsOf(scopeKey(scope))(db, userIds, 'every' in scope ? 0 : scope.memberId);
  const first = new Map<number, MemberRow>();
  for (const row of rows) if (!first.has(row.userId)) first.set(row.userId, row as MemberRow);
  return [...first.values()];
}

type LicenceParams = { id: number; memberId: number };

const licenceById = byShape((scope) =>
  preparedQuery<LicenceParams>()((db: DB, param: Param<LicenceParams>) => {
    let query = db
      .selectFrom('licences')
      .innerJoin('customers', 'customers.id', 'licences.customerId')
      .innerJoin('products', 'products.key', 'licences.productKey')
      .select([
        'licences.id',
        'licences.customerId',
        'licences.endDate',
        'customers.name as customerName',
        'products.name as productName',
      ])
      .where('licences.id', '=', param('id'));
    if (scope !== 'every') query = query.where(inScope(db, rolesOf(scope), param('memberId'), 'licences.customerId'));
    return query;
  }),
);

/** A licence by its number (its id), in the customers of the scope. */
export async function findLicence(db: DB, id: number, scope: Scope) {
  return licenceById(scopeKey(scope))(db, { id, memberId: 'every' in scope ? 0 : scope.memberId });
}

type ProductParams = { pattern: string; limit: number };

const productMatches = preparedQuery<ProductParams>()((db: DB, param: Param<ProductParams>) =>
  db
    .selectFrom('products')
    .select(['products.key', 'products.name', 'products.description'])
    .where(containsPattern(['products.key', 'products.name'], param('pattern')))
    .orderBy('products.name')
    .limit(param('limit')),
);

/** Products by a part of their key or name. The catalogue is short: its rows are read as they are. */
export async function findProducts(db: DB, text: string, limit: number) {
  return productMatches(db, { pattern: likePattern(text), limit });
}

type VersionParams = { semVer: string; productPattern: string; limit: number };

const versionMatches = byShape((withProduct) =>
  preparedQuery<VersionParams>()((db: DB, param: Param<VersionParams>) => {
    const postgres = isPostgres(db);
    const semVer = param('semVer');
    const column = postgres ? sql`${sql.ref('versions.semVer')} collate "C"` : sql`${sql.ref('versions.semVer')}`;
    const high = postgres ? sql`${semVer} || chr(1114111)` : sql`${semVer} || char(1114111)`;
    let query = db
      .selectFrom('versions')
      .innerJoin('products', 'products.key', 'versions.productKey')
      .select([
        'versions.id',
        'versions.semVer',
        'versions.title',
        'versions.type',
        'versions.published',
        'versions.releaseDate',
        'products.key as productKey',
        'products.name as productName',
      ])
      .where(sql<SqlBool>`${column} >= ${semVer} and ${column} < ${high}`);
    if (withProduct === 'product') {
      query = query.where(
        'versions.productKey',
        'in',
        db
          .selectFrom('products')
          .select('products.key')
          .where(containsPattern(['products.key', 'products.name'], param('productPattern'))),
      );
    }
    return query.orderBy(column).orderBy('versions.id').limit(param('limit'));
  }),
);

/**
 * Versions whose semantic version starts with `semVer`, of every product or of the products whose
 * key or name holds `productText`, in byte order of the version (migration 030's index gives it).
 */
export async function findVersions(db: DB, semVer: string, productText: string | null, limit: number) {
  return versionMatches(productText ? 'product' : 'every')(db, {
    semVer,
    productPattern: productText ? likePattern(productText) : '',
    limit,
  });
}
