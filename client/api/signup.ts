import { Ok } from '../../common/api/common';
import { ERROR_CODES } from '../../common/api/errors';
import type { SignupBody } from '../../common/api/signup';
import { ApiError, api } from './client';

/**
 * Self-service sign-up (docs/decisions/067). The sign-up page is one of the light pages (public.html):
 * this module names no react-query, and nothing of the confirmation (./signup-confirmation.ts).
 */

/** Mails a confirmation link to the address; the page's language is the mail's. */
export const signUp = (body: SignupBody) => api.post('/signup', body, { schema: Ok });

/** Which screen replaces the form (spec 4 "Signup"). */
export type SignupOutcome = 'success' | 'existingUser' | 'pending' | 'generic';

/**
 * Spec 4: an error containing "pending invitation" gives the pending screen, one containing "already
 * exists" the existing-user screen, anything else the generic one. The server's codes say the same,
 * and are read first.
 */
export function signupOutcomeOf(error: unknown): SignupOutcome {
  if (!(error instanceof ApiError)) return 'generic';
  if (error.code === ERROR_CODES.signupPendingInvitation || error.message.includes('pending invitation')) {
    return 'pending';
  }
  if (error.code === ERROR_CODES.signupAlreadyExists || error.message.includes('already exists')) {
    return 'existingUser';
  }
  return 'generic';
}
