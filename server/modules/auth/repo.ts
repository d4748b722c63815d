import { sql } from 'kysely';
import { MEMBER_ROLES, type MemberRole } from '../../../common/roles';
import { preparedQuery } from '../../db/prepared';
import { type DB, nowIso } from '../../db';
import { emailEquals } from '../../db/email';
import { hashToken } from './hash';

/** SQL of the auth area. */

const USER_COLUMNS = ['id', 'email', 'fullName', 'type', 'status', 'preferredLocale'] as const;

export function findUserByEmail(db: DB, email: string) {
  return db
    .selectFrom('users')
    .select([...USER_COLUMNS, 'passwordHash'])
    .where(emailEquals(email))
    .executeTakeFirst();
}

export function findUserById(db: DB, id: number) {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function recordLoginAttempt(db: DB, attempt: { email: string; ip: string; success: boolean }) {
  await db
    .insertInto('loginAttempts')
    .values({ email: attempt.email, ip: attempt.ip, success: attempt.success ? 1 : 0, createdAt: nowIso() })
    .execute();
}

/** Failures of an e-mail count from its last successful sign-in after `since` (the owner proved who they are), else from `since`. */
async function failuresCountFrom(db: DB, email: string, since: string): Promise<string> {
  const lastSuccess = await db
    .selectFrom('loginAttempts')
    .select((eb) => eb.fn.max('createdAt').as('at'))
    .where('email', '=', email)
    .where('success', '=', 1)
    .where('createdAt', '>=', since)
    .executeTakeFirst();
  return lastSuccess?.at && lastSuccess.at > since ? lastSuccess.at : since;
}

/**
 * Failed sign-ins since `since`: for the e-mail, those after its last successful sign-in (the owner
 * proved who they are), and for the IP address, all of them.
 */
export async function recentFailures(db: DB, email: string, ip: string, since: string) {
  const emailSince = await failuresCountFrom(db, email, since);
  const [byEmail, byIp] = await Promise.all([
    db
      .selectFrom('loginAttempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('email', '=', email)
      .where('success', '=', 0)
      .where('createdAt', '>', emailSince)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('loginAttempts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ip', '=', ip)
      .where('success', '=', 0)
      .where('createdAt', '>', since)
      .executeTakeFirstOrThrow(),
  ]);
  return { byEmail: Number(byEmail.n), byIp: Number(byIp.n) };
}

/** Failed sign-ins for the e-mail after its last success and after `since`: how many, and the latest. */
export async function failuresSinceLastSuccess(db: DB, email: string, since: string) {
  const from = await failuresCountFrom(db, email, since);
  const row = await db
    .selectFrom('loginAttempts')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('createdAt').as('last')])
    .where('email', '=', email)
    .where('success', '=', 0)
    .where('createdAt', '>', from)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), last: row.last ?? null };
}

export async function purgeLoginAttempts(db: DB, before: string): Promise<number> {
  const result = await db.deleteFrom('loginAttempts').where('createdAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function purgeResetTokens(db: DB, expiredBefore: string): Promise<number> {
  const result = await db.deleteFrom('passwordResetTokens').where('expiresAt', '<', expiredBefore).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function touchLastLogin(db: DB, userId: number) {
  await db.updateTable('users').set({ lastLoginAt: nowIso() }).where('id', '=', userId).execute();
}

/** camelCase, as the CamelCasePlugin gives result columns back */
const holdsAlias = (role: MemberRole) => `holds${role[0].toUpperCase()}${role.slice(1)}`;

/**
 * The profile's accounts in one query: the user's enabled memberships (first `limit` by customer
 * name) with each customer's account executive (its earliest enabled member with that role, still
 * enabled), plus, over all of them, how many there are and which roles the user holds.
 */
const holds = (role: MemberRole) =>
  sql<number>`max(case when ${sql.ref('memberships.role')} = ${role} then 1 else 0 end) over ()`;

/** Read by every profile request: compiled once (server/db/prepared.ts). */
const accounts = preparedQuery<{ userId: number; limit: number }>()((db: DB, param) =>
  db
    .selectFrom('memberships')
    .innerJoin('customers', 'customers.id', 'memberships.customerId')
    .select((eb) => {
      const executive = (column: 'users.fullName' | 'users.email') =>
        eb
          .selectFrom('memberships as executive')
          .innerJoin('users', 'users.id', 'executive.userId')
          .select(column)
          .whereRef('executive.customerId', '=', 'customers.id')
          .where('executive.role', '=', 'accountExecutive')
          .where('executive.status', '=', 'enabled')
          .where('users.status', '=', 'enabled')
          .orderBy('executive.id')
          .limit(1);
      return [
        'customers.id',
        'customers.name',
        'memberships.role',
        executive('users.fullName').as('executiveFullName'),
        executive('users.email').as('executiveEmail'),
        sql<number>`count(*) over ()`.as('total'),
        ...MEMBER_ROLES.map((role) => holds(role).as(holdsAlias(role))),
      ];
    })
    .where('memberships.userId', '=', param('userId'))
    .where('memberships.status', '=', 'enabled')
    .orderBy('customers.name')
    .orderBy('customers.id')
    .limit(param('limit')),
);

export async function profileAccounts(db: DB, userId: number, limit: number) {
  const rows = await accounts(db, { userId, limit });
  const first = rows[0] as Record<string, unknown> | undefined;
  return {
    rows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      role: r.role,
      accountExecutive:
        r.executiveFullName !== null && r.executiveEmail !== null
          ? { fullName: r.executiveFullName, email: r.executiveEmail }
          : null,
    })),
    total: Number(first?.total ?? 0),
    roles: MEMBER_ROLES.filter((role) => Number(first?.[holdsAlias(role)] ?? 0) === 1),
  };
}

export async function updateProfile(
  db: DB,
  userId: number,
  patch: Partial<{ email: string; fullName: string; preferredLocale: 'en' | 'fr' }>,
) {
  await db
    .updateTable('users')
    .set({ ...patch, updatedAt: nowIso() })
    .where('id', '=', userId)
    .execute();
}

export async function insertResetToken(
  db: DB,
  row: { userId: number; tokenHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('passwordResetTokens')
    .values({ ...row, usedAt: null })
    .execute();
}

/**
 * Spends every outstanding reset or first-password token of a user, in the caller's transaction: a
 * link mailed to an address the account no longer has, or sent before it was disabled, must not work.
 */
export async function revokeResetTokens(db: DB, userId: number) {
  await db
    .updateTable('passwordResetTokens')
    .set({ usedAt: nowIso() })
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .execute();
}

/** The stored password hash of a user; null without one (or without the user). */
export async function passwordHashOf(db: DB, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('passwordHash').where('id', '=', userId).executeTakeFirst();
  return row?.passwordHash ?? null;
}

/** The account other than `exceptUserId` that has `email`, whatever its case. */
export function otherUserWithEmail(db: DB, email: string, exceptUserId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'preferredLocale'])
    .where(emailEquals(email))
    .where('id', '!=', exceptUserId)
    .executeTakeFirst();
}

export async function setUserEmail(db: DB, userId: number, email: string): Promise<void> {
  await db.updateTable('users').set({ email, updatedAt: nowIso() }).where('id', '=', userId).execute();
}

export async function insertEmailChangeToken(
  db: DB,
  row: { userId: number; newEmail: string; tokenHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('emailChangeTokens')
    .values({ ...row, usedAt: null })
    .execute();
}

/** Spends a user's pending e-mail changes (only the latest request counts; none after a change). */
export async function spendEmailChanges(db: DB, userId: number): Promise<void> {
  await db
    .updateTable('emailChangeTokens')
    .set({ usedAt: nowIso() })
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .execute();
}

/** An unused, unexpired e-mail change of an enabled user, by its token's hash. */
export function findUsableEmailChange(db: DB, tokenHash: string) {
  return db
    .selectFrom('emailChangeTokens')
    .innerJoin('users', 'users.id', 'emailChangeTokens.userId')
    .select(['emailChangeTokens.id', 'emailChangeTokens.userId', 'emailChangeTokens.newEmail'])
    .where('emailChangeTokens.tokenHash', '=', tokenHash)
    .where('emailChangeTokens.usedAt', 'is', null)
    .where('emailChangeTokens.expiresAt', '>', nowIso())
    .where('users.status', '=', 'enabled')
    .executeTakeFirst();
}

/** Uses an e-mail change once: true for the one caller that found it unused. */
export async function claimEmailChange(db: DB, id: number): Promise<boolean> {
  const claimed = await db
    .updateTable('emailChangeTokens')
    .set({ usedAt: nowIso() })
    .where('id', '=', id)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** A usable reset token: known, unused, not expired, and its user still enabled. */
export function findUsableResetToken(db: DB, token: string) {
  return db
    .selectFrom('passwordResetTokens')
    .innerJoin('users', 'users.id', 'passwordResetTokens.userId')
    .select(['passwordResetTokens.id', 'passwordResetTokens.userId', 'users.email', 'users.fullName'])
    .where('passwordResetTokens.tokenHash', '=', hashToken(token))
    .where('passwordResetTokens.usedAt', 'is', null)
    .where('passwordResetTokens.expiresAt', '>', nowIso())
    .where('users.status', '=', 'enabled')
    .executeTakeFirst();
}

/**
 * Uses a reset token and sets the new password in one transaction: the token is claimed with a
 * guarded update (a second use, even concurrent, finds it used), the user's other tokens are spent
 * too, and every session of the user ends. Returns the user id, or null for an unusable token.
 */
export async function resetPasswordWithToken(db: DB, token: string, passwordHash: string): Promise<number | null> {
  return db.transaction().execute(async (trx) => {
    const row = await findUsableResetToken(trx, token);
    if (!row) return null;
    const now = nowIso();
    const claimed = await trx
      .updateTable('passwordResetTokens')
      .set({ usedAt: now })
      .where('id', '=', row.id)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return null;
    await trx
      .updateTable('passwordResetTokens')
      .set({ usedAt: now })
      .where('userId', '=', row.userId)
      .where('usedAt', 'is', null)
      .execute();
    await trx.updateTable('users').set({ passwordHash, updatedAt: now }).where('id', '=', row.userId).execute();
    await trx.deleteFrom('sessions').where('userId', '=', row.userId).execute();
    return row.userId;
  });
}
