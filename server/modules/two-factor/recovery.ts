import crypto from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../common/api/two-factor';
import { hashToken } from '../auth/hash';

/**
 * Recovery codes: ten, each 10 characters of an alphabet without look-alikes (50 bits), shown as
 * `xxxxx-xxxxx`. Only their SHA-256 is kept: the codes are random enough that a slow hash adds
 * nothing. Typed codes are compared without case, spaces or dashes.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newCode(): string {
  const bytes = crypto.randomBytes(10);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
export const hashRecoveryCode = (code: string) => hashToken(`recovery:${normalizeRecoveryCode(code)}`);

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
}
