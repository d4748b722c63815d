import type { FastifyBaseLogger } from 'fastify';
import type { Profile, UpdateProfileBody } from '../../../common/api/auth';
import { ERROR_CODES } from '../../../common/api/errors';
import {
  CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL,
  CAPTCHA_AFTER_FAILED_LOGINS_PER_IP,
  CAPTCHA_REQUIRED_STATUS,
  FAILED_LOGIN_WINDOW_MS,
  PASSWORD_RESET_VALIDITY_MS,
} from '../../../common/constants';
import { profileRole } from '../../../common/roles';
import type { Config } from '../../config';
import { type DB, isUniqueViolation } from '../../db';
import { emailTaken, HttpError, unauthenticated } from '../../http-error';
import type { Captcha } from '../../integrations/captcha';
import type { Mailer } from '../../mail/types';
import type { BackgroundTasks } from '../../tasks';
import { hashPassword, verifyPassword } from './password';
import * as repo from './repo';
import { issuePasswordResetToken, resetPasswordLink } from './tokens';

export interface AuthDeps {
  config: Config;
  db: DB;
  mail: Mailer;
  captcha: Captcha;
  log: FastifyBaseLogger;
  tasks: BackgroundTasks;
}

/** One answer for a wrong password, an unknown e-mail, a disabled account or one without password. */
export const badCredentials = () => new HttpError(401, ERROR_CODES.badCredentials, 'Invalid e-mail or password');
export const captchaRequired = () =>
  new HttpError(CAPTCHA_REQUIRED_STATUS, ERROR_CODES.captchaRequired, 'Please solve the captcha to continue');
export const captchaInvalid = () =>
  new HttpError(CAPTCHA_REQUIRED_STATUS, ERROR_CODES.captchaInvalid, 'The captcha was not solved; please try again');
export const invalidToken = () => new HttpError(400, ERROR_CODES.invalidToken, 'This token seems invalid.');

export const PROFILE_ACCOUNTS_LIMIT = 50;
const ATTEMPTS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
let lastAttemptsPurge = 0;

/**
 * Checks credentials and returns the user to start a session for. After repeated failures for the
 * e-mail or from the IP address a solved captcha must come with the request, and the password is not
 * even looked at without one, so guessing stays slow.
 */
export async function login(
  deps: AuthDeps,
  input: { email: string; password: string; recaptchaResponse?: string },
  ip: string,
) {
  const { db, captcha } = deps;
  const now = Date.now();
  const since = new Date(now - FAILED_LOGIN_WINDOW_MS).toISOString();
  const failures = await repo.recentFailures(db, input.email, ip, since);
  const needsCaptcha =
    failures.byEmail >= CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL || failures.byIp >= CAPTCHA_AFTER_FAILED_LOGINS_PER_IP;
  if (needsCaptcha) {
    const solved = input.recaptchaResponse ? await captcha.verify(input.recaptchaResponse, ip) : false;
    if (!solved) {
      await repo.recordLoginAttempt(db, { email: input.email, ip, success: false });
      throw input.recaptchaResponse ? captchaInvalid() : captchaRequired();
    }
  }

  const user = await repo.findUserByEmail(db, input.email);
  // verifyPassword does the same work without a hash, so an unknown e-mail takes as long as a known one.
  const passwordOk = await verifyPassword(user?.passwordHash ?? null, input.password);
  const success = Boolean(user && passwordOk && user.status === 'enabled');
  await repo.recordLoginAttempt(db, { email: input.email, ip, success });
  if (now - lastAttemptsPurge > PURGE_INTERVAL_MS) {
    lastAttemptsPurge = now;
    await repo.purgeLoginAttempts(db, new Date(now - ATTEMPTS_KEPT_MS).toISOString());
  }
  if (!success || !user) throw badCredentials();
  await repo.touchLastLogin(db, user.id);
  return user;
}

export async function loadProfile(db: DB, userId: number): Promise<Profile> {
  const user = await repo.findUserById(db, userId);
  if (!user) throw unauthenticated();
  const [roles, accounts] = await Promise.all([
    repo.membershipRoles(db, userId),
    repo.accountsOf(db, userId, PROFILE_ACCOUNTS_LIMIT),
  ]);
  const executives = await repo.accountExecutivesOf(
    db,
    accounts.rows.map((a) => a.id),
  );
  return {
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    preferredLocale: user.preferredLocale,
    type: user.type,
    yourRole: profileRole(user.type, roles),
    accounts: accounts.rows.map((a) => ({
      id: a.id,
      name: a.name,
      role: a.role,
      accountExecutive: executives.get(a.id) ?? null,
    })),
    accountsTotal: accounts.total,
  };
}

const emailTakenError = () => emailTaken('This e-mail address is already used by another account');

export async function updateProfile(db: DB, userId: number, patch: UpdateProfileBody): Promise<Profile> {
  if (patch.email && (await repo.emailTakenByOther(db, patch.email, userId))) throw emailTakenError();
  if (Object.keys(patch).length > 0) {
    try {
      await repo.updateProfile(db, userId, patch);
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTakenError();
      throw error;
    }
  }
  return loadProfile(db, userId);
}

/**
 * Sends a reset link when the e-mail belongs to an enabled user. The caller answers the same either
 * way, so the form does not tell who has an account; and since issuing a token and queueing a mail
 * take time that a lookup alone does not, that work runs after the answer, not before it.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  input: { email: string; recaptchaResponse: string },
  ip: string,
) {
  const { db, captcha, config, mail, tasks } = deps;
  if (!(await captcha.verify(input.recaptchaResponse, ip))) throw captchaInvalid();
  tasks.run('password-reset mail', async () => {
    const user = await repo.findUserByEmail(db, input.email);
    if (user?.status !== 'enabled') return;
    const token = await issuePasswordResetToken(db, user.id, PASSWORD_RESET_VALIDITY_MS);
    await mail.send({
      to: user.email,
      template: 'passwordReset',
      locale: user.preferredLocale,
      data: {
        fullName: user.fullName,
        link: resetPasswordLink(config.baseUrl, user.preferredLocale, token),
        validity: String(PASSWORD_RESET_VALIDITY_MS / 3_600_000),
      },
    });
  });
}

export async function checkPasswordResetToken(db: DB, token: string) {
  if (!(await repo.findUsableResetToken(db, token))) throw invalidToken();
}

export async function resetPassword(db: DB, token: string, password: string) {
  // Hashing is slow: do it before the transaction, not inside.
  if (!(await repo.findUsableResetToken(db, token))) throw invalidToken();
  const passwordHash = await hashPassword(password);
  const userId = await repo.resetPasswordWithToken(db, token, passwordHash);
  if (userId === null) throw invalidToken();
  return userId;
}
