import type { Insertable } from 'kysely';
import { type DB, nowIso } from '../../db';
import type { CustomersTable, InvitationsTable, MembershipsTable } from '../../db/schema';
import { hashToken } from '../auth/tokens';

/** Writes of the customers area: customers, their memberships and invitations. */

type New<T> = Omit<Insertable<T>, 'id' | 'createdAt' | 'updatedAt'> & { createdAt?: string };

export async function insertCustomer(db: DB, customer: New<CustomersTable>) {
  const now = customer.createdAt ?? nowIso();
  return db
    .insertInto('customers')
    .values({ ...customer, createdAt: now, updatedAt: now })
    .returning(['id', 'name', 'customerKey'])
    .executeTakeFirstOrThrow();
}

export async function updateCustomer(
  db: DB,
  id: number,
  changes: Partial<Pick<CustomersTable, 'name' | 'customerKey'>>,
): Promise<void> {
  await db
    .updateTable('customers')
    .set({ ...changes, updatedAt: nowIso() })
    .where('id', '=', id)
    .execute();
}

export async function insertMembership(
  db: DB,
  membership: Omit<New<MembershipsTable>, 'status'> & Partial<Pick<MembershipsTable, 'status'>>,
) {
  return db
    .insertInto('memberships')
    .values({ status: 'enabled', ...membership, createdAt: membership.createdAt ?? nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * Stores an invitation under the hash of its key (like reset tokens): the key itself only travels
 * in the mail and the copied link. A second pending invitation for the same customer and address
 * (whatever its case) is refused by the database as a unique violation.
 */
export async function insertInvitation(
  db: DB,
  invitation: Omit<New<InvitationsTable>, 'keyHash' | 'sentAt'> & { key: string; sentAt?: string },
) {
  const { key, ...rest } = invitation;
  const now = invitation.createdAt ?? nowIso();
  return db
    .insertInto('invitations')
    .values({ ...rest, keyHash: hashToken(key), sentAt: invitation.sentAt ?? now, createdAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}
