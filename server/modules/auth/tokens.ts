import crypto from 'node:crypto';
import { PASSWORD_RESET_VALIDITY_MS } from '../../../common/constants';
import type { DB } from '../../db';
import { hashToken } from './hash';
import { insertResetToken } from './repo';

export { hashToken } from './hash';

/**
 * Password-reset tokens (decisions.md): 256 random bits, only the SHA-256 stored, single use,
 * valid one hour. Also used to let a newly created user choose a first password.
 */
export const newResetToken = () => crypto.randomBytes(32).toString('base64url');

export async function issuePasswordResetToken(db: DB, userId: number, validityMs = PASSWORD_RESET_VALIDITY_MS) {
  const token = newResetToken();
  const now = Date.now();
  await insertResetToken(db, {
    userId,
    tokenHash: hashToken(token),
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + validityMs).toISOString(),
  });
  return token;
}

/** The link a mail carries to choose a password: /{locale}/reset-password/{token}. */
export function resetPasswordLink(baseUrl: string, locale: string, token: string) {
  return `${baseUrl}/${locale}/reset-password/${encodeURIComponent(token)}`;
}
