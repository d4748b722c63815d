import { sql } from 'kysely';
import type { DB } from '../../db';

/** Invitations of the managing side: listing, resending (a new key) and cancelling. */

function invitationQuery(db: DB) {
  return db
    .selectFrom('invitations')
    .innerJoin('customers', 'customers.id', 'invitations.customerId')
    .leftJoin('users as inviter', 'inviter.id', 'invitations.inviterId')
    .select((eb) => [
      'invitations.id',
      'invitations.customerId',
      'customers.name as customerName',
      'invitations.role',
      'inviter.fullName as inviterFullName',
      'invitations.invitedFullName',
      'invitations.invitedEmail',
      'invitations.locale',
      'invitations.state',
      'invitations.sentAt',
      'invitations.expiresAt',
      'invitations.keySealed',
      eb
        .exists(
          eb
            .selectFrom('users as invited')
            .select('invited.id')
            .where(sql`lower(invited.email)`, '=', sql`lower(invitations.invited_email)`),
        )
        .as('hasAccount'),
    ]);
}

export type InvitationRow = Awaited<ReturnType<typeof findInvitation>> & {};

/** The pending invitations of a customer (expired ones included: they are still pending), newest first. */
export function listPendingInvitations(db: DB, customerId: number) {
  return invitationQuery(db)
    .where('invitations.customerId', '=', customerId)
    .where('invitations.state', '=', 'pending')
    .where('invitations.selfService', '=', 0)
    .orderBy('invitations.sentAt', 'desc')
    .orderBy('invitations.id', 'desc')
    .execute();
}

export function findInvitation(db: DB, id: number) {
  return invitationQuery(db).where('invitations.id', '=', id).executeTakeFirst();
}

export async function findPendingInvitationId(db: DB, customerId: number, email: string) {
  const row = await db
    .selectFrom('invitations')
    .select('id')
    .where('customerId', '=', customerId)
    .where('state', '=', 'pending')
    .where(sql`lower(invited_email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row?.id;
}

/** A new key and a new expiry for a pending invitation; false when it is no longer pending. */
export async function replaceKey(
  db: DB,
  id: number,
  values: { keyHash: string; keySealed: string; sentAt: string; expiresAt: string },
) {
  const result = await db
    .updateTable('invitations')
    .set(values)
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Revokes a pending invitation (the row stays, for the log); false when it is no longer pending. */
export async function cancelInvitation(db: DB, id: number) {
  const result = await db
    .updateTable('invitations')
    .set({ state: 'cancelled' })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The customer an invitation belongs to, for the access rule of the routes that name it. */
export async function customerOfInvitation(db: DB, id: number) {
  const row = await db.selectFrom('invitations').select('customerId').where('id', '=', id).executeTakeFirst();
  return row?.customerId ?? null;
}
