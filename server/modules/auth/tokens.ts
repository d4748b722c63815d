import crypto from 'node:crypto';
import { PASSWORD_RESET_VALIDITY_MS } from '../../../common/constants';
import { type DB, nowIso } from '../../db';

/**
 * Password-reset tokens (decisions.md): 256 random bits, only the SHA-256 stored, single use,
 * valid one hour. Also used to let a newly created user choose a first password.
 */
export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export const newResetToken = () => crypto.randomBytes(32).toString('base64url');

export async function issuePasswordResetToken(db: DB, userId: number, validityMs = PASSWORD_RESET_VALIDITY_MS) {
  const token = newResetToken();
  const now = Date.now();
  await db
    .insertInto('passwordResetTokens')
    .values({
      userId,
      tokenHash: hashToken(token),
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + validityMs).toISOString(),
      usedAt: null,
    })
    .execute();
  return token;
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

/** The link a mail carries to choose a password: /{locale}/reset-password/{token}. */
export function resetPasswordLink(baseUrl: string, locale: string, token: string) {
  return `${baseUrl}/${locale}/reset-password/${encodeURIComponent(token)}`;
}
