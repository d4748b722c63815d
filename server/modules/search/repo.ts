import { type SqlBool, sql } from 'kysely';
import type { MemberRole, UserType } from '../../../common/roles';
import type { DB } from '../../db';
import { containsText, firstMatchIds, isPostgres } from '../../db/search';
import { memberCustomerIds } from '../members/repo';

/**
 * The queries of the staff's search box (GET /api/search, docs/decisions/079-staff-search.md). Each
 * reads at most `limit` rows of its kind through an index that stops after them, whatever the number
 * of rows and of matches: no sort of every match, no count.
 */

/** Customers of an account executive's memberships (server/scope.ts), or every customer. */
export type Scope = { every: true } | { memberId: number; roles: readonly MemberRole[] };

const inScope = (db: DB, scope: Scope, column: 'customers.id' | 'memberships.customerId' | 'licences.customerId') =>
  'every' in scope ? undefined : sql<SqlBool>`${sql.ref(column)} in (${memberCustomerIds(db, scope)})`;

export async function findCustomers(db: DB, text: string, limit: number, scope: Scope) {
  // A member's customers are few: their memberships drive the query, each customer then tested.
  const ids =
    'every' in scope
      ? await firstMatchIds(db, 'customers', text, limit)
      : (
          await db
            .selectFrom('customers')
            .select('customers.id')
            .where(inScope(db, scope, 'customers.id')!)
            .where(containsText(['customers.name', 'customers.customerKey'], text))
            .limit(limit)
            .execute()
        ).map((row) => row.id);
  if (ids.length === 0) return [];
  return db
    .selectFrom('customers')
    .select(['customers.id', 'customers.name', 'customers.customerKey'])
    .where('customers.id', 'in', ids)
    .execute();
}

export async function findUsers(db: DB, text: string, limit: number) {
  const ids = await firstMatchIds(db, 'users', text, limit);
  if (ids.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['users.id', 'users.fullName', 'users.email', 'users.type'])
    .where('users.id', 'in', ids)
    .execute() as Promise<{ id: number; fullName: string; email: string; type: UserType }[]>;
}

export interface MemberRow {
  userId: number;
  fullName: string;
  email: string;
  customerId: number;
  customerName: string;
  role: MemberRole;
}

/**
 * People who are members of the customers in scope, one row per person (their first membership
 * there). Every customer: users found through the search index who hold a membership; a member's
 * customers: the memberships of those customers, each person tested.
 */
export async function findMembers(db: DB, text: string, limit: number, scope: Scope): Promise<MemberRow[]> {
  let userIds: number[];
  if ('every' in scope) {
    const member = sql<SqlBool>`exists (select 1 from memberships where memberships.user_id = ${sql.ref('users.id')})`;
    userIds = await firstMatchIds(db, 'users', text, limit, member);
  } else {
    const rows = await db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.userId')
      .select('users.id')
      .distinct()
      .where(inScope(db, scope, 'memberships.customerId')!)
      .where(containsText(['users.fullName', 'users.email'], text))
      .limit(limit)
      .execute();
    userIds = rows.map((row) => row.id);
  }
  if (userIds.length === 0) return [];
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
    .where('memberships.userId', 'in', userIds)
    .orderBy('memberships.userId')
    .orderBy('memberships.customerId');
  const scoped = inScope(db, scope, 'memberships.customerId');
  if (scoped) memberships = memberships.where(scoped);
  const first = new Map<number, MemberRow>();
  for (const row of await memberships.execute()) if (!first.has(row.userId)) first.set(row.userId, row as MemberRow);
  return [...first.values()];
}

/** A licence by its number (its id), in the customers of the scope. */
export async function findLicence(db: DB, id: number, scope: Scope) {
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
    .where('licences.id', '=', id);
  const scoped = inScope(db, scope, 'licences.customerId');
  if (scoped) query = query.where(scoped);
  return query.execute();
}

/** Products by a part of their key or name. The catalogue is short: its rows are read as they are. */
export async function findProducts(db: DB, text: string, limit: number) {
  return db
    .selectFrom('products')
    .select(['products.key', 'products.name', 'products.description'])
    .where(containsText(['products.key', 'products.name'], text))
    .orderBy('products.name')
    .limit(limit)
    .execute();
}

/**
 * Versions whose semantic version starts with `semVer`, of every product or of the products whose
 * key or name holds `productText`, in byte order of the version (migration 030's index gives it).
 */
export async function findVersions(db: DB, semVer: string, productText: string | null, limit: number) {
  const postgres = isPostgres(db);
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
  if (productText) {
    query = query.where(
      'versions.productKey',
      'in',
      db
        .selectFrom('products')
        .select('products.key')
        .where(containsText(['products.key', 'products.name'], productText)),
    );
  }
  return query.orderBy(column).orderBy('versions.id').limit(limit).execute();
}
