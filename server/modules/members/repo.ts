import { sql } from 'kysely';
import type { MemberSort } from '../../../common/api/members';
import type { MembershipStatus } from '../../../common/domain';
import type { MemberRole } from '../../../common/roles';
import type { DB } from '../../db';
import { containsText } from '../../db/search';

/** Members of a customer: memberships with their users' names and e-mails. */

const memberColumns = [
  'memberships.id',
  'memberships.userId',
  'memberships.customerId',
  'memberships.role',
  'memberships.status',
  'users.fullName',
  'users.email',
] as const;

export type MemberRow = Awaited<ReturnType<typeof findMember>> & {};

interface MemberListOptions {
  /** a part of the full name or e-mail address, whatever the case */
  filter?: string;
  sort: MemberSort;
  offset: number;
  /** the whole list from `offset` when not given */
  length?: number;
}

/** The members of a customer matching the filter, one page of them, with the count of all of them. */
export async function listMembers(db: DB, customerId: number, options: MemberListOptions) {
  let matching = db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .where('memberships.customerId', '=', customerId);
  if (options.filter) matching = matching.where(containsText(['users.fullName', 'users.email'], options.filter));
  const first = options.sort === 'email' ? sql`lower(users.email)` : sql`lower(users.full_name)`;
  let rows = matching.select(memberColumns).orderBy(first).orderBy('memberships.id');
  if (options.length !== undefined || options.offset > 0) {
    rows = rows.limit(options.length ?? MAX_ROWS).offset(options.offset);
  }
  const [found, counted] = await Promise.all([
    rows.execute(),
    matching.select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: found, total: Number(counted.n) };
}

/** The limit of a list asked for whole from an offset (SQL needs one with an offset). */
const MAX_ROWS = 2_147_483_647;

export function findMember(db: DB, membershipId: number) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select(memberColumns)
    .where('memberships.id', '=', membershipId)
    .executeTakeFirst();
}

export async function setMemberStatus(db: DB, membershipId: number, status: MembershipStatus) {
  await db.updateTable('memberships').set({ status }).where('id', '=', membershipId).execute();
}

/** Whether the address already belongs to a member of the customer, whatever the membership's status. */
export async function isMember(db: DB, customerId: number, email: string) {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select('memberships.id')
    .where('memberships.customerId', '=', customerId)
    .where(sql`lower(users.email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** The customer of a membership, or null when there is none with that id (access answers 404). */
export async function customerOfMembership(db: DB, membershipId: number): Promise<number | null> {
  const row = await db.selectFrom('memberships').select('customerId').where('id', '=', membershipId).executeTakeFirst();
  return row?.customerId ?? null;
}

/**
 * The ids of the customers of a member scope (the member's enabled memberships with one of the
 * roles), as a subquery: `where(customerId, 'in', memberCustomerIds(db, scope))`.
 */
export function memberCustomerIds(db: DB, scope: { memberId: number; roles: readonly MemberRole[] }) {
  return db
    .selectFrom('memberships')
    .select('memberships.customerId')
    .where('memberships.userId', '=', scope.memberId)
    .where('memberships.status', '=', 'enabled')
    .where('memberships.role', 'in', [...scope.roles]);
}
