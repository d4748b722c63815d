import crypto from 'node:crypto';
import type {
  AddPasskeyBody,
  ConfirmIdentityBody,
  ConfirmTotpBody,
  FactorAdded,
  RecoveryCodes,
  TotpEnrolment,
  TwoFactorStatus,
  WebAuthnOptions,
} from '../../../common/api/two-factor';
import { ERROR_CODES } from '../../../common/api/errors';
import { type Actor, originOf, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, isUniqueViolation } from '../../db';
import { badRequest, fieldDetail, HttpError, notFound } from '../../http-error';
import { loginDelayed, loginWait } from '../auth/backoff';
import { hashToken } from '../auth/hash';
import { verifyPassword } from '../auth/password';
import * as authRepo from '../auth/repo';
import * as passkeys from './passkeys';
import { hashRecoveryCode, newRecoveryCodes } from './recovery';
import * as repo from './repo';
import { enrolmentOf, matchingStep, newTotpSecret, sealTotpSecret, unsealTotpSecret } from './totp';

/**
 * A user's own second factors (docs/security.md, "Two-factor sign-in"): passkeys, one authenticator
 * app, and the recovery codes made with the first factor. Secrets and codes never reach a log.
 */

/** A passkey registration's challenge lives this long, bound to the session that asked for it. */
const REGISTRATION_MS = 5 * 60_000;

export const secondFactorInvalid = (message = 'The code is wrong or was already used') =>
  new HttpError(400, ERROR_CODES.secondFactorInvalid, message);

const passkeyTaken = () => new HttpError(409, ERROR_CODES.secondFactorInvalid, 'This passkey is already registered');

/**
 * Who is there, asked again before a factor goes or recovery codes are remade: the current password,
 * or a code of the authenticator app that has not been used yet. A stolen session alone must not
 * strip an account of its second factor. Wrong answers are failed sign-ins of the account and meet
 * the back-off of decision 018, as a wrong current password does for an e-mail change.
 */
async function confirmIdentity(ctx: AppContext, actor: Actor, input: ConfirmIdentityBody) {
  const { user, ip } = signedInUser(actor);
  const password = input.password ?? '';
  const code = input.code ?? '';
  if (!password && !code) {
    throw new HttpError(
      400,
      ERROR_CODES.identityConfirmationRequired,
      'Confirm it is you: give your current password, or a code of your authenticator app',
      [{ path: 'password', message: 'errors.required' }],
    );
  }
  const { db } = ctx;
  const wait = await loginWait(db, user.email);
  if (wait > 0) throw loginDelayed(wait);
  const ok = password
    ? await verifyPassword(await authRepo.passwordHashOf(db, user.id), password)
    : await acceptTotpCode(ctx, user.id, code, false);
  if (ok) return;
  await authRepo.recordLoginAttempt(db, { email: user.email, ip, success: false });
  if (password) {
    throw new HttpError(
      400,
      ERROR_CODES.wrongPassword,
      'The current password is not correct',
      fieldDetail('password', ERROR_CODES.wrongPassword),
    );
  }
  throw new HttpError(
    400,
    ERROR_CODES.secondFactorInvalid,
    'The code is wrong or was already used',
    fieldDetail('code', ERROR_CODES.secondFactorInvalid),
  );
}

/** REQUIRE_2FA_FOR names the user's type. */
export const twoFactorRequiredFor = (ctx: AppContext, type: string) =>
  (ctx.config.requireTwoFactorFor as readonly string[]).includes(type);

export async function twoFactorStatus(ctx: AppContext, actor: Actor): Promise<TwoFactorStatus> {
  const { user } = signedInUser(actor);
  return statusOf(ctx, user);
}

async function statusOf(ctx: AppContext, user: { id: number; type: string }): Promise<TwoFactorStatus> {
  const [keys, totp, left] = await Promise.all([
    repo.listPasskeys(ctx.db, user.id),
    repo.findTotp(ctx.db, user.id),
    repo.unusedRecoveryCodes(ctx.db, user.id),
  ]);
  return {
    passkeys: keys.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt })),
    totp: totp?.confirmedAt ? { name: totp.name, createdAt: totp.confirmedAt, lastUsedAt: totp.lastUsedAt } : null,
    recoveryCodesLeft: left,
    required: twoFactorRequiredFor(ctx, user.type),
  };
}

/** Ten new recovery codes when the user has none left, so the first factor comes with them. */
async function codesIfNone(db: DB, userId: number): Promise<string[] | null> {
  if ((await repo.unusedRecoveryCodes(db, userId)) > 0) return null;
  const codes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(db, userId, codes.map(hashRecoveryCode));
  return codes;
}

const registrationId = (sessionHash: string) => hashToken(`passkey-registration:${sessionHash}`);

function sessionOf(actor: Actor): string {
  const hash = originOf(actor)?.sessionHash;
  if (!hash) throw badRequest('A passkey is added from a signed-in session');
  return hash;
}

/** Starts adding a passkey: the options for the browser, the challenge kept for this session. */
export async function passkeyRegistrationOptions(ctx: AppContext, actor: Actor): Promise<WebAuthnOptions> {
  const { user } = signedInUser(actor);
  const existing = await repo.listPasskeys(ctx.db, user.id);
  const options = await passkeys.registrationOptions(ctx.config, user, existing);
  await repo.putChallenge(ctx.db, {
    id: registrationId(sessionOf(actor)),
    kind: 'passkeyRegistration',
    userId: user.id,
    loginEmail: null,
    challenge: options.challenge,
    expiresAt: new Date(Date.now() + REGISTRATION_MS).toISOString(),
  });
  return options as unknown as WebAuthnOptions;
}

export async function addPasskey(ctx: AppContext, actor: Actor, input: AddPasskeyBody): Promise<FactorAdded> {
  const { user } = signedInUser(actor);
  const id = registrationId(sessionOf(actor));
  const pending = await repo.findChallenge(ctx.db, id);
  if (!pending?.challenge || pending.kind !== 'passkeyRegistration' || pending.userId !== user.id) {
    throw badRequest('The passkey registration expired; please try again');
  }
  await repo.deleteChallenge(ctx.db, id);
  const made = await passkeys.verifyRegistration(ctx.config, input.credential, pending.challenge);
  if (!made) throw secondFactorInvalid('The passkey could not be verified');
  if (await repo.findPasskeyByCredentialId(ctx.db, made.credentialId)) throw passkeyTaken();
  let recoveryCodes: string[] | null;
  try {
    recoveryCodes = await ctx.db.transaction().execute(async (trx) => {
      await repo.insertPasskey(trx, { userId: user.id, name: input.name, ...made });
      return codesIfNone(trx, user.id);
    });
  } catch (error) {
    // the same answer sent twice at once: the second meets the unique credential id
    if (isUniqueViolation(error)) throw passkeyTaken();
    throw error;
  }
  ctx.log.info({ userId: user.id }, 'passkey added');
  return { status: await statusOf(ctx, user), recoveryCodes };
}

export async function renamePasskey(ctx: AppContext, actor: Actor, input: { id: number; name: string }) {
  const { user } = signedInUser(actor);
  if (!(await repo.renamePasskey(ctx.db, user.id, input.id, input.name))) throw notFound('Passkey not found');
  return statusOf(ctx, user);
}

/** Refuses to take the last factor of a user whose type requires one. */
async function assertNotLast(ctx: AppContext, user: { id: number; type: string }) {
  if (twoFactorRequiredFor(ctx, user.type) && (await repo.factorCount(ctx.db, user.id)) <= 1) {
    throw new HttpError(
      409,
      ERROR_CODES.twoFactorRequired,
      'Your account requires a second factor: add another one before removing this one',
    );
  }
}

/** Without any factor left, the recovery codes go too: new ones come with the next first factor. */
async function dropCodesIfNoFactor(db: DB, userId: number) {
  if ((await repo.factorCount(db, userId)) === 0) await repo.replaceRecoveryCodes(db, userId, []);
}

export async function removePasskey(ctx: AppContext, actor: Actor, input: { id: number } & ConfirmIdentityBody) {
  const { user } = signedInUser(actor);
  await assertNotLast(ctx, user);
  await confirmIdentity(ctx, actor, input);
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.deletePasskey(trx, user.id, input.id))) throw notFound('Passkey not found');
    await dropCodesIfNoFactor(trx, user.id);
  });
  ctx.log.info({ userId: user.id }, 'passkey removed');
  return statusOf(ctx, user);
}

/** Starts an authenticator app's enrolment: the secret and its QR code, answered this once. */
export async function startTotp(ctx: AppContext, actor: Actor): Promise<TotpEnrolment> {
  const { user } = signedInUser(actor);
  const existing = await repo.findTotp(ctx.db, user.id);
  if (existing?.confirmedAt) {
    throw new HttpError(
      409,
      ERROR_CODES.secondFactorInvalid,
      'An authenticator app is already set up: remove it first',
    );
  }
  const secret = newTotpSecret();
  await repo.startTotp(ctx.db, user.id, sealTotpSecret(ctx.config.sessionSecret, secret), 'Authenticator app');
  return { secret, ...(await enrolmentOf(secret, user.email)) };
}

/** Checks a code against the user's app and spends its time step; true when it was right and new. */
export async function acceptTotpCode(ctx: AppContext, userId: number, code: string, confirm: boolean) {
  const row = await repo.findTotp(ctx.db, userId);
  if (!row || Boolean(row.confirmedAt) === confirm) return false;
  const secret = unsealTotpSecret(ctx.config.sealSecrets, row.secretSealed);
  if (!secret) return false;
  const step = matchingStep(secret, code);
  return step !== null && repo.acceptTotpStep(ctx.db, row.id, step, confirm);
}

export async function confirmTotp(ctx: AppContext, actor: Actor, input: ConfirmTotpBody): Promise<FactorAdded> {
  const { user } = signedInUser(actor);
  const row = await repo.findTotp(ctx.db, user.id);
  if (!row || row.confirmedAt) throw badRequest('Start the authenticator app set-up first');
  if (!(await acceptTotpCode(ctx, user.id, input.code, true))) throw secondFactorInvalid();
  const recoveryCodes = await ctx.db.transaction().execute(async (trx) => {
    if (input.name) await repo.renameTotp(trx, user.id, input.name);
    return codesIfNone(trx, user.id);
  });
  ctx.log.info({ userId: user.id }, 'authenticator app added');
  return { status: await statusOf(ctx, user), recoveryCodes };
}

export async function renameTotp(ctx: AppContext, actor: Actor, input: { name: string }) {
  const { user } = signedInUser(actor);
  if (!(await repo.renameTotp(ctx.db, user.id, input.name))) throw notFound('No authenticator app is set up');
  return statusOf(ctx, user);
}

export async function removeTotp(ctx: AppContext, actor: Actor, input: ConfirmIdentityBody) {
  const { user } = signedInUser(actor);
  const row = await repo.findTotp(ctx.db, user.id);
  if (!row) throw notFound('No authenticator app is set up');
  if (row.confirmedAt) {
    await assertNotLast(ctx, user);
    await confirmIdentity(ctx, actor, input);
  }
  await ctx.db.transaction().execute(async (trx) => {
    if (!(await repo.deleteTotp(trx, user.id))) throw notFound('No authenticator app is set up');
    await dropCodesIfNoFactor(trx, user.id);
  });
  ctx.log.info({ userId: user.id }, 'authenticator app removed');
  return statusOf(ctx, user);
}

/** New recovery codes replace the old ones, used or not; answered this once. */
export async function regenerateRecoveryCodes(
  ctx: AppContext,
  actor: Actor,
  input: ConfirmIdentityBody,
): Promise<RecoveryCodes> {
  const { user } = signedInUser(actor);
  if ((await repo.factorCount(ctx.db, user.id)) === 0) {
    throw badRequest('Recovery codes come with a second factor: add a passkey or an authenticator app first');
  }
  await confirmIdentity(ctx, actor, input);
  const codes = newRecoveryCodes();
  await ctx.db.transaction().execute((trx) => repo.replaceRecoveryCodes(trx, user.id, codes.map(hashRecoveryCode)));
  ctx.log.info({ userId: user.id }, 'recovery codes regenerated');
  return { recoveryCodes: codes };
}

/** A random token for a cookie, and the hash the database keys its row by. */
export function newChallengeToken() {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, id: hashToken(token) };
}
