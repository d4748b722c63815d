import { ERROR_CODES } from '../../../common/api/errors';
import type { DB } from '../../db';
import { HttpError } from '../../http-error';
import * as repo from './repo';

/**
 * Per-account back-off after repeated failed sign-ins (docs/security.md). The captcha makes each
 * guess cost work; this bounds how many guesses one account can receive, whatever the attacker's
 * computing power. The delay is short and capped, and a success ends it, so someone who fails on
 * purpose can hold an account's owner off for minutes at most, never hours.
 */
export const BACKOFF_AFTER_FAILURES = 5;
const BACKOFF_FIRST_DELAY_MS = 60_000;
export const BACKOFF_MAX_DELAY_MS = 15 * 60_000;
/** Failures older than this are forgotten even without a success in between. */
const BACKOFF_MEMORY_MS = 24 * 60 * 60_000;

/** The wait after `failures` failed sign-ins in a row: none before the threshold, then doubling up to the cap. */
export function backoffDelay(failures: number): number {
  if (failures < BACKOFF_AFTER_FAILURES) return 0;
  return Math.min(BACKOFF_MAX_DELAY_MS, BACKOFF_FIRST_DELAY_MS * 2 ** (failures - BACKOFF_AFTER_FAILURES));
}

/** Milliseconds before `email` may try to sign in again; 0 when it may now. */
export async function loginWait(db: DB, email: string, now = Date.now()): Promise<number> {
  const since = new Date(now - BACKOFF_MEMORY_MS).toISOString();
  const { count, last } = await repo.failuresSinceLastSuccess(db, email, since);
  const delay = backoffDelay(count);
  if (delay === 0 || !last) return 0;
  return Math.max(0, Date.parse(last) + delay - now);
}

export function loginDelayed(waitMs: number) {
  const seconds = Math.ceil(waitMs / 1000);
  const minutes = Math.ceil(seconds / 60);
  return new HttpError(
    429,
    ERROR_CODES.loginDelayed,
    `Too many failed sign-ins for this account; try again in ${minutes} minute${minutes > 1 ? 's' : ''}`,
    undefined,
    { 'Retry-After': String(seconds) },
  );
}
