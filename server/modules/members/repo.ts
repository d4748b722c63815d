import { sql } from 'kysely';
import type { MembershipStatus } from '../../../common/domain';
import type { DB } from '../../db';

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

export function listMembers(db: DB, customerId: number) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select(memberColumns)
    .where('memberships.customerId', '=', customerId)
    .orderBy(sql`lower(users.full_name)`)
    .orderBy('memberships.id')
    .execute();
}

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
