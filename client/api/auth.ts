import { queryOptions } from './query-options';
import { z } from 'zod/mini';
import {
  CheckPasswordResetResult,
  type ConfirmEmailBody,
  ConfirmEmailResult,
  type LoginBody,
  Profile,
  PublicConfig,
  type RequestPasswordResetBody,
  type ResetPasswordBody,
  ResetPasswordResult,
  type UpdateProfileBody,
} from '../../common/api/auth';
import { Ok } from '../../common/api/common';
import { type SecondFactorBody, SecondFactorNeeded, WebAuthnOptions } from '../../common/api/two-factor';
import { PROFILE_ELEMENT_ID, SIGNED_OUT_ATTRIBUTE } from '../../common/constants';
import { ApiError, api } from './client';

/** Query keys of the session and sign-in data. */
export const authKeys = {
  profile: ['auth', 'me'] as const,
  config: ['config'] as const,
};

export const getConfig = () => api.get('/config', { schema: PublicConfig });

/** The signed-in user, or null when there is no session (a 401 is the expected answer then). */
export async function getProfile(): Promise<Profile | null> {
  try {
    return await api.get('/auth/me', { schema: Profile, reloadOnUnauthorized: false });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * The profile the server sent with the page, so that the first render need not ask for it: the
 * signed-in user, null when the server saw no session, undefined when the page does not say (the
 * profile is then asked for as usual).
 */
export function profileSentWithPage(): Profile | null | undefined {
  const element = document.getElementById(PROFILE_ELEMENT_ID);
  if (element) {
    try {
      const parsed = Profile.safeParse(JSON.parse(element.textContent ?? ''));
      if (parsed.success) return parsed.data;
    } catch {
      // not JSON: asked for as usual
    }
    return undefined;
  }
  return document.documentElement.hasAttribute(SIGNED_OUT_ATTRIBUTE) ? null : undefined;
}

/** The signed-in user (null for a visitor); checked again on focus, which notices a session ended elsewhere. */
export const profileQuery = () =>
  queryOptions({ queryKey: authKeys.profile, queryFn: getProfile, staleTime: 60_000, refetchOnWindowFocus: 'always' });

/** The public configuration: fixed for the life of the page. */
export const configQuery = () =>
  queryOptions({ queryKey: authKeys.config, queryFn: getConfig, staleTime: Number.POSITIVE_INFINITY });

/** The profile, or `secondFactor` when the account has one: the sign-in then takes a second step. */
export const login = (body: LoginBody) =>
  api.post('/auth/login', body, { schema: z.union([Profile, SecondFactorNeeded]), reloadOnUnauthorized: false });

/** The second step of a sign-in (or a password-less passkey's): the profile, as the sign-in answers it. */
export const completeSignIn = (body: SecondFactorBody) =>
  api.post('/auth/second-factor', body, { schema: Profile, reloadOnUnauthorized: false });

/** WebAuthn options for a sign-in with a passkey (after the password, or without one). */
export const passkeySignInOptions = () =>
  api.post('/auth/passkey/options', {}, { schema: WebAuthnOptions, reloadOnUnauthorized: false });

export const logout = () => api.post('/auth/logout', {}, { schema: z.unknown(), reloadOnUnauthorized: false });

export const updateProfile = (body: UpdateProfileBody) => api.patch('/auth/me', body, { schema: Profile });

/** Follows the link mailed to a new address; answers the address the account now has. */
export const confirmEmail = (body: ConfirmEmailBody) =>
  api.post('/auth/confirm-email', body, { schema: ConfirmEmailResult });

export const requestPasswordReset = (body: RequestPasswordResetBody) =>
  api.post('/auth/request-password-reset', body, { schema: Ok });

export const checkPasswordReset = (passwordResetToken: string) =>
  api.get('/auth/check-password-reset', { query: { passwordResetToken }, schema: CheckPasswordResetResult });

/** Answers the account's address, for the sign-in form that follows. */
export const resetPassword = (body: ResetPasswordBody) =>
  api.patch('/auth/reset-password', body, { schema: ResetPasswordResult });
