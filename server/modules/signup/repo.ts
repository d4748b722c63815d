import { sql } from 'kysely';
import type { DB } from '../../db';

/**
 * SQL of self-service sign-ups (docs/decisions/067): invitations with `self_service = 1`, no customer
 * until confirmed, the form in `signup_data`. At most one is pending per lower(e-mail) (migration 024).
 */

/** The pending sign-up of an address (maybe expired), whatever the address's case. */
export function findPendingSignup(db: DB, email: string) {
  return db
    .selectFrom('invitations')
    .select(['id', 'expiresAt'])
    .where('selfService', '=', 1)
    .where('state', '=', 'pending')
    .where(sql`lower(invited_email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/**
 * A pending sign-up whose link has expired gets a new key, form, language and expiry; false when it
 * is no longer that (another request renewed it, or it was confirmed, meanwhile).
 */
export async function renewExpiredSignup(
  db: DB,
  id: number,
  now: string,
  values: {
    keyHash: string;
    keySealed: string;
    invitedFullName: string;
    locale: 'en' | 'fr';
    signupData: string;
    sentAt: string;
    expiresAt: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set(values)
    .where('id', '=', id)
    .where('selfService', '=', 1)
    .where('state', '=', 'pending')
    .where('expiresAt', '<=', now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** The sign-up a confirmation link's key hash stands for, whatever its state. */
export function findSignupByHash(db: DB, keyHash: string) {
  return db
    .selectFrom('invitations')
    .select(['id', 'invitedEmail', 'invitedFullName', 'locale', 'state', 'expiresAt', 'acceptedAt', 'signupData'])
    .where('keyHash', '=', keyHash)
    .where('selfService', '=', 1)
    .executeTakeFirst();
}

export type SignupRow = NonNullable<Awaited<ReturnType<typeof findSignupByHash>>>;

/**
 * Marks the sign-up confirmed unless another request did first, or its link expired: true for the
 * one request that wins. The first write of the confirmation, so a request racing it stops here.
 */
export async function claimSignup(db: DB, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('invitations')
    .set({ state: 'accepted', acceptedAt: now })
    .where('id', '=', id)
    .where('selfService', '=', 1)
    .where('state', '=', 'pending')
    .where('acceptedAt', 'is', null)
    .where('expiresAt', '>', now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Once confirmed: the customer and the account the sign-up became, and the form with the wizard's answers. */
export async function recordConfirmation(
  db: DB,
  id: number,
  values: { customerId: number; acceptedUserId: number; signupData: string },
): Promise<void> {
  await db.updateTable('invitations').set(values).where('id', '=', id).execute();
}
