import type {
  CaptchaChallenge,
  CheckPasswordResetResult,
  LoginBody,
  Profile,
  RequestPasswordResetBody,
  ResetPasswordBody,
  ResetPasswordResult,
  UpdateProfileBody,
} from '../../../common/api/auth';
import type { SecondFactorNeeded } from '../../../common/api/two-factor';
import { beginSecondFactor, methodsOf } from '../two-factor/sign-in';
import { setupRequired } from '../two-factor/enrolment';
import { profileAbilities } from './policy';
import { ERROR_CODES } from '../../../common/api/errors';
import {
  CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL,
  CAPTCHA_AFTER_FAILED_LOGINS_PER_IP,
  CAPTCHA_REQUIRED_STATUS,
  FAILED_LOGIN_WINDOW_MS,
  PASSWORD_RESET_VALIDITY_MS,
} from '../../../common/constants';
import { DEFAULT_LOCALE, profileRole } from '../../../common/roles';
import { type Actor, originOf, type SessionUser, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { fieldDetail, HttpError, notFound, unauthenticated } from '../../http-error';
import { isBuiltinCaptcha } from '../../integrations/captcha';
import { renderMail } from '../../mail/templates';
import { endSession, startSession } from '../sessions/service';
import { loginDelayed, loginWait } from './backoff';
import { requestEmailChange } from './email-change';
import { hashPassword, verifyPassword } from './password';
import { assertPasswordAcceptable } from './password-rule';
import * as repo from './repo';
import { issuePasswordResetToken, newResetToken, resetPasswordLink } from './tokens';

/**
 * One answer for a wrong password, an unknown e-mail, a disabled account or one without password.
 * When the next attempt will need a solved captcha, `details` names the captcha field, so the form
 * shows the captcha now instead of after one more refused attempt (HTTP 420 stays for other clients).
 */
const badCredentials = (captchaNext = false) =>
  new HttpError(
    401,
    ERROR_CODES.badCredentials,
    'Invalid e-mail or password',
    captchaNext ? fieldDetail('recaptchaResponse', ERROR_CODES.captchaRequired) : undefined,
  );
const captchaRequired = () =>
  new HttpError(CAPTCHA_REQUIRED_STATUS, ERROR_CODES.captchaRequired, 'Please solve the captcha to continue');
const captchaInvalid = () =>
  new HttpError(CAPTCHA_REQUIRED_STATUS, ERROR_CODES.captchaInvalid, 'The captcha was not solved; please try again');
const invalidToken = () => new HttpError(400, ERROR_CODES.invalidToken, 'This token seems invalid.');

export const PROFILE_ACCOUNTS_LIMIT = 50;
/** Sign-in attempts are kept this long: the captcha rules look back far less, the log may need more. */
export const ATTEMPTS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;

/** The address per-IP counters use; the portal's own work (jobs, command line) counts as one. */
const ipOf = (actor: Actor) => originOf(actor)?.ip ?? 'system';

/**
 * Checks credentials and starts a session: returns its raw id (for the cookie) and the profile.
 * After repeated failures for the e-mail or from the IP address a solved captcha must come with the
 * request, and the password is not even looked at without one, so guessing stays slow; after more failures for the e-mail, attempts wait
 * out a short, growing delay (backoff.ts).
 */
export async function login(
  ctx: AppContext,
  actor: Actor,
  input: LoginBody,
): Promise<{ session: string; body: Profile } | { pending: string; body: SecondFactorNeeded }> {
  const { db, captcha } = ctx;
  const ip = ipOf(actor);
  const now = Date.now();
  // Refused before any other work, and not recorded: waiting out the delay is all that ends it.
  const wait = await loginWait(db, input.email, now);
  if (wait > 0) throw loginDelayed(wait);
  const since = new Date(now - FAILED_LOGIN_WINDOW_MS).toISOString();
  const failures = await repo.recentFailures(db, input.email, ip, since);
  const needsCaptcha =
    failures.byEmail >= CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL || failures.byIp >= CAPTCHA_AFTER_FAILED_LOGINS_PER_IP;
  if (needsCaptcha) {
    const solved = input.recaptchaResponse ? await captcha.verify(input.recaptchaResponse, ip) : false;
    // Not recorded as a failure: no password was tried, and requests without work must not push an
    // account into the back-off.
    if (!solved) throw input.recaptchaResponse ? captchaInvalid() : captchaRequired();
  }

  const user = await repo.findUserByEmail(db, input.email);
  // verifyPassword does the same work without a hash, so an unknown e-mail takes as long as a known one.
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
  const success = Boolean(user && passwordOk && user.status === 'enabled');
  if (!success || !user) {
    await repo.recordLoginAttempt(db, { email: input.email, ip, success: false });
    // This failure counts too: the same rule as above, one attempt later. Unknown and known e-mails
    // count alike, so the answer tells nothing about which addresses have accounts.
    const captchaNext =
      failures.byEmail + 1 >= CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL ||
      failures.byIp + 1 >= CAPTCHA_AFTER_FAILED_LOGINS_PER_IP;
    throw badCredentials(captchaNext);
  }
  // An account with a second factor gets no session yet, and the right password is not recorded as
  // a success: that would end the back-off the second step's failures count toward.
  const methods = await methodsOf(ctx, user.id);
  if (methods.length > 0) return beginSecondFactor(ctx, user.id, input.email, methods);
  await repo.recordLoginAttempt(db, { email: input.email, ip, success: true });
  await repo.touchLastLogin(db, user.id);
  const session = await startSession(ctx, actor, user.id);
  return { session, body: await loadProfile(ctx, user) };
}

/** The profile a sign-in answers, for the second step of one (two-factor/sign-in.ts). */
export async function profileById(ctx: AppContext, userId: number): Promise<Profile> {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user) throw unauthenticated();
  return loadProfile(ctx, user);
}

/** Ends the session the actor came with; signing out without one is harmless. */
export async function logout(ctx: AppContext, actor: Actor): Promise<{ ok: true }> {
  await endSession(ctx, actor);
  return { ok: true };
}

/** The session lookup read the user already: one query more for their accounts (DESIGN.md section 6). */
export async function me(ctx: AppContext, actor: Actor): Promise<Profile> {
  return loadProfile(ctx, signedInUser(actor).user);
}

async function loadProfile(
  ctx: AppContext,
  user: Pick<SessionUser, 'id' | 'email' | 'fullName' | 'preferredLocale' | 'type'>,
): Promise<Profile> {
  const accounts = await repo.profileAccounts(ctx.db, user.id, PROFILE_ACCOUNTS_LIMIT);
  const yourRole = profileRole(user.type, accounts.roles);
  return {
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    preferredLocale: user.preferredLocale,
    type: user.type,
    yourRole,
    accounts: accounts.rows,
    accountsTotal: accounts.total,
    can: profileAbilities(user, yourRole),
    twoFactorSetupRequired: await setupRequired(ctx, user),
  };
}

/**
 * Updates the signed-in user's name or language at once; a new e-mail only after the current
 * password and the link mailed to it (email-change.ts). No answer tells whether an address is taken.
 */
export async function updateProfile(ctx: AppContext, actor: Actor, patch: UpdateProfileBody): Promise<Profile> {
  const { db } = ctx;
  const current = signedInUser(actor).user;
  const { email, currentPassword, ...rest } = patch;
  if (email !== undefined && email.toLowerCase() !== current.email.toLowerCase()) {
    const preferredLocale = rest.preferredLocale ?? current.preferredLocale;
    await requestEmailChange(ctx, actor, { newEmail: email, currentPassword, locale: preferredLocale });
  }
  if (Object.keys(rest).length > 0) await repo.updateProfile(db, current.id, rest);
  const user = await repo.findUserById(db, current.id);
  if (!user) throw unauthenticated();
  return loadProfile(ctx, user);
}

/**
 * The least time a reset request takes to answer, known address or not. Well above what the work
 * takes (a lookup, then a token and a mail written in one transaction: a few milliseconds), so the
 * difference between a known and an unknown address does not show in the time of the answer.
 */
export const RESET_ANSWER_FLOOR_MS = 250;

const sleepUntil = (time: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));

/**
 * Mails a reset link when the e-mail belongs to an enabled user, and answers the same either way, so
 * the form does not tell who has an account. The token and its mail are written before the answer,
 * so a crash right after it loses neither. An unknown or disabled address does comparable work (the
 * same lookup, the same mail rendered and dropped), and every answer waits for RESET_ANSWER_FLOOR_MS
 * from the start, which hides the cost of the writes.
 */
export async function requestPasswordReset(
  ctx: AppContext,
  actor: Actor,
  input: RequestPasswordResetBody,
): Promise<{ ok: true }> {
  const started = Date.now();
  const { db, captcha, config, mail } = ctx;
  if (!(await captcha.verify(input.recaptchaResponse, ipOf(actor)))) throw captchaInvalid();
  const user = await repo.findUserByEmail(db, input.email);
  const locale = user?.preferredLocale ?? DEFAULT_LOCALE;
  const data = (token: string) => ({
    fullName: user?.fullName ?? '',
    link: resetPasswordLink(config.baseUrl, locale, token),
    validityHours: PASSWORD_RESET_VALIDITY_MS / 3_600_000,
  });
  if (user?.status === 'enabled') {
    await db.transaction().execute(async (trx) => {
      const token = await issuePasswordResetToken(trx, user.id, PASSWORD_RESET_VALIDITY_MS);
      await mail.send({ to: user.email, template: 'passwordReset', locale, data: data(token) }, trx);
    });
  } else {
    renderMail({ to: input.email, template: 'passwordReset', locale, data: data(newResetToken()) });
  }
  await sleepUntil(started + RESET_ANSWER_FLOOR_MS);
  return { ok: true };
}

export async function checkPasswordResetToken(
  ctx: AppContext,
  _actor: Actor,
  input: { passwordResetToken: string },
): Promise<CheckPasswordResetResult> {
  const holder = await repo.findUsableResetToken(ctx.db, input.passwordResetToken);
  if (!holder) throw invalidToken();
  return { ok: true, email: holder.email };
}

/** Answers the account's address, which the sign-in form is then filled with (the token came to it). */
export async function resetPassword(
  ctx: AppContext,
  _actor: Actor,
  input: ResetPasswordBody,
): Promise<ResetPasswordResult> {
  const { db } = ctx;
  const token = input.passwordResetToken;
  // Hashing is slow: do it before the transaction, not inside.
  const holder = await repo.findUsableResetToken(db, token);
  if (!holder) throw invalidToken();
  assertPasswordAcceptable(input.password, { email: holder.email, names: [holder.fullName] });
  const passwordHash = await hashPassword(input.password);
  const userId = await repo.resetPasswordWithToken(db, token, passwordHash);
  if (userId === null) throw invalidToken();
  const user = await repo.findUserById(db, userId);
  if (!user) throw invalidToken();
  return { ok: true, email: user.email };
}

/** A proof-of-work challenge; only the self-hosted captcha has them. */
export async function captchaChallenge(ctx: AppContext): Promise<CaptchaChallenge> {
  if (!isBuiltinCaptcha(ctx.captcha)) throw notFound('The self-hosted captcha is not in use: reCAPTCHA is configured');
  return ctx.captcha.challenge();
}

/** Forgets sign-in attempts older than ATTEMPTS_KEPT_MS; a scheduled job runs it. */
export function purgeOldLoginAttempts(ctx: AppContext, now = Date.now()): Promise<number> {
  return repo.purgeLoginAttempts(ctx.db, new Date(now - ATTEMPTS_KEPT_MS).toISOString());
}

/** Forgets reset and first-password tokens past their expiry (used or not); a scheduled job runs it. */
export function purgeExpiredResetTokens(ctx: AppContext, now = Date.now()): Promise<number> {
  return repo.purgeResetTokens(ctx.db, new Date(now).toISOString());
}
