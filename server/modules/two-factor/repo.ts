import type { TwoFactorChallengeKind } from '../../../common/api/two-factor';
import { type DB, nowIso } from '../../db';

/** SQL of two-factor sign-in: passkeys, the authenticator app, recovery codes, pending challenges. */

// ---- passkeys

export function listPasskeys(db: DB, userId: number) {
  return db
    .selectFrom('passkeys')
    .select(['id', 'name', 'credentialId', 'transports', 'createdAt', 'lastUsedAt'])
    .where('userId', '=', userId)
    .orderBy('id')
    .execute();
}

export function findPasskeyByCredentialId(db: DB, credentialId: string) {
  return db.selectFrom('passkeys').selectAll().where('credentialId', '=', credentialId).executeTakeFirst();
}

export async function insertPasskey(
  db: DB,
  row: { userId: number; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string },
) {
  await db
    .insertInto('passkeys')
    .values({ ...row, transports: JSON.stringify(row.transports), createdAt: nowIso() })
    .execute();
}

export async function passkeyUsed(db: DB, id: number, counter: number) {
  await db.updateTable('passkeys').set({ counter, lastUsedAt: nowIso() }).where('id', '=', id).execute();
}

export async function renamePasskey(db: DB, userId: number, id: number, name: string): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ name })
    .where('id', '=', id)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deletePasskey(db: DB, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

// ---- the authenticator app

export function findTotp(db: DB, userId: number) {
  return db.selectFrom('totpAuthenticators').selectAll().where('userId', '=', userId).executeTakeFirst();
}

/** A new enrolment replaces an unconfirmed one; a confirmed one stays until removed. */
export async function startTotp(db: DB, userId: number, secretSealed: string, name: string) {
  const createdAt = nowIso();
  await db
    .insertInto('totpAuthenticators')
    .values({ userId, secretSealed, name, createdAt })
    .onConflict((oc) =>
      oc
        .column('userId')
        .doUpdateSet({ secretSealed, name, createdAt, lastStep: null })
        .where('totpAuthenticators.confirmedAt', 'is', null),
    )
    .execute();
}

/**
 * Records the accepted time step, only if it is later than the last one: a code accepted once is
 * refused after, even by two requests at the same instant. Returns whether this call won.
 */
export async function acceptTotpStep(db: DB, id: number, step: number, confirm: boolean): Promise<boolean> {
  const now = nowIso();
  const result = await db
    .updateTable('totpAuthenticators')
    .set({ lastStep: step, lastUsedAt: now, ...(confirm ? { confirmedAt: now } : {}) })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lastStep', 'is', null), eb('lastStep', '<', step)]))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function renameTotp(db: DB, userId: number, name: string): Promise<boolean> {
  const result = await db
    .updateTable('totpAuthenticators')
    .set({ name })
    .where('userId', '=', userId)
    .where('confirmedAt', 'is not', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteTotp(db: DB, userId: number): Promise<boolean> {
  const result = await db.deleteFrom('totpAuthenticators').where('userId', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

// ---- recovery codes

export async function replaceRecoveryCodes(db: DB, userId: number, hashes: string[]) {
  await db.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
  if (hashes.length === 0) return;
  const createdAt = nowIso();
  await db
    .insertInto('recoveryCodes')
    .values(hashes.map((codeHash) => ({ userId, codeHash, createdAt })))
    .execute();
}

/** Spends the code if it is one of the user's unused ones; returns whether it was. */
export async function useRecoveryCode(db: DB, userId: number, codeHash: string): Promise<boolean> {
  const result = await db
    .updateTable('recoveryCodes')
    .set({ usedAt: nowIso() })
    .where('userId', '=', userId)
    .where('codeHash', '=', codeHash)
    .where('usedAt', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function unusedRecoveryCodes(db: DB, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recoveryCodes')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- all factors

/** How many second factors the user can sign in with: confirmed authenticator app and passkeys. */
export async function factorCount(db: DB, userId: number): Promise<number> {
  const [passkeys, totp] = await Promise.all([
    db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('totpAuthenticators')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('userId', '=', userId)
      .where('confirmedAt', 'is not', null)
      .executeTakeFirstOrThrow(),
  ]);
  return Number(passkeys.n) + Number(totp.n);
}

/** Removes every factor and recovery code of the user (an admin's reset). */
export async function deleteAllFactors(db: DB, userId: number) {
  await db.deleteFrom('passkeys').where('userId', '=', userId).execute();
  await db.deleteFrom('totpAuthenticators').where('userId', '=', userId).execute();
  await db.deleteFrom('recoveryCodes').where('userId', '=', userId).execute();
  await db.deleteFrom('twoFactorChallenges').where('userId', '=', userId).execute();
}

// ---- pending challenges

export async function putChallenge(
  db: DB,
  row: {
    id: string;
    kind: TwoFactorChallengeKind;
    userId: number | null;
    loginEmail: string | null;
    challenge: string | null;
    expiresAt: string;
  },
) {
  const values = { ...row, attempts: 0, createdAt: nowIso() };
  await db
    .insertInto('twoFactorChallenges')
    .values(values)
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
}

/** A challenge still valid now; an expired one is not answered (the purge job removes it). */
export function findChallenge(db: DB, id: string) {
  return db
    .selectFrom('twoFactorChallenges')
    .selectAll()
    .where('id', '=', id)
    .where('expiresAt', '>', nowIso())
    .executeTakeFirst();
}

export async function setChallenge(db: DB, id: string, challenge: string) {
  await db.updateTable('twoFactorChallenges').set({ challenge }).where('id', '=', id).execute();
}

/** Counts one failed attempt against a pending sign-in; returns the attempts so far. */
export async function failChallenge(db: DB, id: string): Promise<number> {
  const row = await db
    .updateTable('twoFactorChallenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts ?? 0;
}

export async function deleteChallenge(db: DB, id: string) {
  await db.deleteFrom('twoFactorChallenges').where('id', '=', id).execute();
}

export async function purgeChallenges(db: DB, before: string): Promise<number> {
  const result = await db.deleteFrom('twoFactorChallenges').where('expiresAt', '<=', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** For the Users page: each user's passkey count and whether an authenticator app is set up, in two queries. */
export async function factorSummaries(
  db: DB,
  userIds: readonly number[],
): Promise<Map<number, { passkeys: number; authenticator: boolean }>> {
  const summaries = new Map(userIds.map((id) => [id, { passkeys: 0, authenticator: false }]));
  if (userIds.length === 0) return summaries;
  const [keys, apps] = await Promise.all([
    db
      .selectFrom('passkeys')
      .select((eb) => ['userId', eb.fn.countAll<number | string>().as('n')])
      .where('userId', 'in', userIds)
      .groupBy('userId')
      .execute(),
    db
      .selectFrom('totpAuthenticators')
      .select('userId')
      .where('userId', 'in', userIds)
      .where('confirmedAt', 'is not', null)
      .execute(),
  ]);
  for (const row of keys) summaries.get(row.userId)!.passkeys = Number(row.n);
  for (const row of apps) summaries.get(row.userId)!.authenticator = true;
  return summaries;
}
