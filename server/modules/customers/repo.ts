import type { NotificationSettings } from '../../../common/api/customers';
import { NOTIFICATION_SETTINGS, type PaymentStatus } from '../../../common/domain';
import type { MemberRole } from '../../../common/roles';
import { type DB, nowIso } from '../../db';
import { preparedQuery } from '../../db/prepared';
import { lowerKey, sortOfMatches, textMatch } from '../../db/search';

export interface CustomerRow {
  id: number;
  name: string;
  customerKey: string;
  selfService: boolean;
}

export interface MembershipRow {
  id: number;
  role: MemberRole;
  settings: NotificationSettings;
}

/** Read on every customer route: compiled once (server/db/prepared.ts). */
const customerWithMembership = preparedQuery<{ customerId: number; userId: number }>()((db: DB, param) =>
  db
    .selectFrom('customers')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.customerId', '=', 'customers.id')
        .on('memberships.userId', '=', param('userId'))
        .on('memberships.status', '=', 'enabled'),
    )
    .select([
      'customers.id',
      'customers.name',
      'customers.customerKey',
      'customers.selfService',
      'memberships.id as membershipId',
      'memberships.role',
      ...NOTIFICATION_SETTINGS.map((flag) => `memberships.${flag}` as const),
    ])
    .where('customers.id', '=', param('customerId')),
);

/**
 * A customer and the user's enabled membership of it, in one query (the access plugin's lookup for
 * every customer route). A disabled membership is left out by the join, so it counts as none.
 * Undefined when the customer does not exist.
 */
export async function findCustomerWithMembership(
  db: DB,
  customerId: number,
  userId: number,
): Promise<{ customer: CustomerRow; membership: MembershipRow | null } | undefined> {
  const row = await customerWithMembership.first(db, { customerId, userId });
  if (!row) return undefined;
  const customer = { id: row.id, name: row.name, customerKey: row.customerKey, selfService: row.selfService === 1 };
  if (row.membershipId === null || row.role === null) return { customer, membership: null };
  return {
    customer,
    membership: {
      id: row.membershipId,
      role: row.role,
      settings: Object.fromEntries(
        NOTIFICATION_SETTINGS.map((flag) => [flag, row[flag] === 1]),
      ) as NotificationSettings,
    },
  };
}

const customerDetails = preparedQuery<{ customerId: number }>()((db: DB, param) =>
  db
    .selectFrom('customers')
    .leftJoin('subscriptions', 'subscriptions.customerId', 'customers.id')
    .leftJoin('memberships', (join) =>
      join.onRef('memberships.customerId', '=', 'customers.id').on((eb) =>
        eb(
          'memberships.id',
          '=',
          eb
            .selectFrom('memberships as ae')
            .innerJoin('users as aeUser', 'aeUser.id', 'ae.userId')
            .select((sub) => sub.fn.min('ae.id').as('id'))
            .whereRef('ae.customerId', '=', 'customers.id')
            .where('ae.role', '=', 'accountExecutive')
            .where('ae.status', '=', 'enabled')
            .where('aeUser.status', '=', 'enabled'),
        ),
      ),
    )
    .leftJoin('users', 'users.id', 'memberships.userId')
    .select(['subscriptions.status as paymentStatus', 'users.fullName', 'users.email', 'customers.billingEmail'])
    .where('customers.id', '=', param('customerId')),
);

/**
 * What the customer page shows beyond the customer row: the subscription's status (the one place
 * payment status is kept) and the account executive, the earliest enabled member with that role
 * whose account is enabled (the same rule as the accounts of the profile).
 */
export async function findCustomerDetails(
  db: DB,
  customerId: number,
): Promise<{
  paymentStatus: PaymentStatus | null;
  accountExecutive: { fullName: string; email: string } | null;
  billingEmail: string | null;
}> {
  const row = await customerDetails.first(db, { customerId });
  return {
    paymentStatus: row?.paymentStatus ?? null,
    accountExecutive: row?.fullName && row.email ? { fullName: row.fullName, email: row.email } : null,
    billingEmail: row?.billingEmail ?? null,
  };
}

/** Whether a customer already has this key (the unique index has the last word, under a race). */
export async function customerKeyInUse(db: DB, customerKey: string): Promise<boolean> {
  const row = await db.selectFrom('customers').select('id').where('customerKey', '=', customerKey).executeTakeFirst();
  return row !== undefined;
}

/** Enabled users of type accountExecutive whose name or e-mail holds `text` (all without), by name. */
export function accountExecutiveCandidates(db: DB, text: string, limit: number) {
  let query = db
    .selectFrom('users')
    .select(['users.id', 'users.fullName', 'users.email'])
    .where('users.type', '=', 'accountExecutive')
    .where('users.status', '=', 'enabled');
  if (text) query = query.where(textMatch(db, 'users', text));
  const lowerName = lowerKey(db, 'users.fullName');
  return query
    .orderBy(text ? sortOfMatches(db, lowerName, 'text') : lowerName)
    .orderBy('users.id')
    .limit(limit)
    .execute();
}

export function findEnabledAccountExecutive(db: DB, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'fullName', 'email'])
    .where('id', '=', userId)
    .where('type', '=', 'accountExecutive')
    .where('status', '=', 'enabled')
    .executeTakeFirst();
}

/** The enabled account executive members of a customer (normally one), earliest first. */
export function currentAccountExecutives(db: DB, customerId: number) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select(['memberships.id as membershipId', 'users.id', 'users.fullName', 'users.email'])
    .where('memberships.customerId', '=', customerId)
    .where('memberships.role', '=', 'accountExecutive')
    .where('memberships.status', '=', 'enabled')
    .orderBy('memberships.id')
    .execute();
}

/**
 * Writes the customer row (its updatedAt): two changes of one customer made in transactions that
 * start with it wait for each other (a row lock on PostgreSQL; SQLite has one writer).
 */
export async function touchCustomer(db: DB, customerId: number): Promise<void> {
  await db.updateTable('customers').set({ updatedAt: nowIso() }).where('id', '=', customerId).execute();
}

export async function disableMemberships(db: DB, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('memberships').set({ status: 'disabled' }).where('id', 'in', ids).execute();
}

/**
 * Up to `limit` customers where the user holds an enabled membership in one of `roles`, by id (the
 * access plugin's derivation of a customer the request leaves out: it needs to know one from several).
 */
export async function customersOfMember(
  db: DB,
  userId: number,
  roles: readonly MemberRole[],
  limit: number,
): Promise<number[]> {
  if (roles.length === 0) return [];
  const rows = await db
    .selectFrom('memberships')
    .select('customerId')
    .where('userId', '=', userId)
    .where('status', '=', 'enabled')
    .where('role', 'in', roles)
    .orderBy('customerId')
    .limit(limit)
    .execute();
  return rows.map((row) => row.customerId);
}

/** A user's membership of a customer, whatever its state. */
export function membershipOf(db: DB, customerId: number, userId: number) {
  return db
    .selectFrom('memberships')
    .select(['id', 'role', 'status'])
    .where('customerId', '=', customerId)
    .where('userId', '=', userId)
    .executeTakeFirst();
}

export async function makeEnabledAccountExecutive(db: DB, membershipId: number): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ role: 'accountExecutive', status: 'enabled' })
    .where('id', '=', membershipId)
    .execute();
}
