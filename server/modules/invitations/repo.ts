import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { InvitationSort } from '../../../common/api/invitations';
import type { DB } from '../../db';
import { emailEquals } from '../../db/email';
import { containsText } from '../../db/search';
import type { Database } from '../../db/schema';
import type { CustomerScope } from '../../scope';
import { memberCustomerIds } from '../members/repo';

/** Invitations of the managing side: listing, resending (a new key) and cancelling. */

function invitationQuery(db: DB) {
  return db
    .selectFrom('invitations')
    .innerJoin('customers', 'customers.id', 'invitations.customerId')
    .leftJoin('users as inviter', 'inviter.id', 'invitations.inviterId')
    .select((eb) => [
      'invitations.id',
      'customers.id as customerId',
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

/**
 * Whose pending invitations a list holds: one customer's; every customer's; those of the customers
 * where a user holds an enabled membership with one of `roles`; or nobody's.
 */
export type InvitationScope = { customerId: number } | CustomerScope;

/**
 * The pending invitations in scope (expired ones included: they are still pending), newest first,
 * the whole list or one page of it, with the count of all of them.
 */
export async function listPendingInvitations(
  db: DB,
  scope: InvitationScope,
  page: { offset: number; length?: number; filter?: string; sort?: InvitationSort } = { offset: 0 },
) {
  if ('none' in scope || ('roles' in scope && scope.roles.length === 0)) return { rows: [], total: 0 };
  const inScope = (eb: ExpressionBuilder<Database, 'invitations'>) => {
    const conditions: Expression<SqlBool>[] = [
      eb('invitations.state', '=', 'pending'),
      eb('invitations.selfService', '=', 0),
    ];
    if ('customerId' in scope) conditions.push(eb('invitations.customerId', '=', scope.customerId));
    if ('memberId' in scope) {
      conditions.push(eb('invitations.customerId', 'in', memberCustomerIds(db, scope)));
    }
    if (page.filter) {
      conditions.push(containsText(['invitations.invitedFullName', 'invitations.invitedEmail'], page.filter));
    }
    return eb.and(conditions);
  };
  let rows = invitationQuery(db).where(inScope);
  if (page.sort === 'name') rows = rows.orderBy(sql`lower(invitations.invited_full_name)`);
  if (page.sort === 'email') rows = rows.orderBy(sql`lower(invitations.invited_email)`);
  rows = rows.orderBy('invitations.sentAt', 'desc').orderBy('invitations.id', 'desc');
  if (page.length !== undefined || page.offset > 0) rows = rows.limit(page.length ?? MAX_ROWS).offset(page.offset);
  const [found, counted] = await Promise.all([
    rows.execute(),
    db
      .selectFrom('invitations')
      .where(inScope)
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: found, total: Number(counted.n) };
}

/** The limit of a list asked for whole from an offset (SQL needs one with an offset). */
const MAX_ROWS = 2_147_483_647;

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

/** The invitation a link's key hash stands for, whatever its state (the caller decides what it allows). */
export function findInvitationByHash(db: DB, keyHash: string) {
  return db.selectFrom('invitations').selectAll().where('keyHash', '=', keyHash).executeTakeFirst();
}

/** The invitation of a key, with its customer's name and the inviter's name and address. */
export function findInvitationToJoin(db: DB, keyHash: string) {
  return (
    db
      .selectFrom('invitations')
      .innerJoin('customers', 'customers.id', 'invitations.customerId')
      .leftJoin('users as inviter', 'inviter.id', 'invitations.inviterId')
      .select([
        'invitations.id',
        'customers.id as customerId',
        'invitations.invitedEmail',
        'invitations.invitedFullName',
        'invitations.role',
        'invitations.locale',
        'invitations.state',
        'invitations.expiresAt',
        'invitations.acceptedAt',
        'customers.name as customerName',
        'inviter.fullName as inviterFullName',
        'inviter.email as inviterEmail',
      ])
      .where('invitations.keyHash', '=', keyHash)
      // self-service sign-up invitations are confirmed by the sign-up flow, not joined here
      .where('invitations.selfService', '=', 0)
      .executeTakeFirst()
  );
}

export type InvitationToJoin = NonNullable<Awaited<ReturnType<typeof findInvitationToJoin>>>;

/** Marks the invitation accepted unless another request did first: true for the one request that wins. */
export async function claimInvitation(db: DB, invitationId: number, userId: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ state: 'accepted', acceptedAt: now, acceptedUserId: userId })
    .where('id', '=', invitationId)
    .where('state', '=', 'pending')
    .where('acceptedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function userHasMembership(db: DB, userId: number, customerId: number) {
  const row = await db
    .selectFrom('memberships')
    .select('id')
    .where('userId', '=', userId)
    .where('customerId', '=', customerId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function emailHasAccount(db: DB, email: string) {
  const row = await db.selectFrom('users').select('id').where(emailEquals(email)).executeTakeFirst();
  return row !== undefined;
}
