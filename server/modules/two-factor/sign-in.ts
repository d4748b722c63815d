import {
  PENDING_SIGN_IN_MS,
  type SecondFactorBody,
  type SecondFactorMethod,
  type SecondFactorNeeded,
  type WebAuthnOptions,
} from '../../../common/api/two-factor';
import type { Profile } from '../../../common/api/auth';
import { ERROR_CODES } from '../../../common/api/errors';
import { type Actor, originOf } from '../../actor';
import type { AppContext } from '../../context';
import { HttpError } from '../../http-error';
import { hashToken } from '../auth/hash';
import { loginDelayed, loginWait } from '../auth/backoff';
import * as authRepo from '../auth/repo';
import { startSession } from '../sessions/service';
import * as passkeys from './passkeys';
import { hashRecoveryCode } from './recovery';
import * as repo from './repo';
import { acceptTotpCode, newChallengeToken, secondFactorInvalid } from './service';

/**
 * The second step of a sign-in (docs/security.md, "Two-factor sign-in"). A right password for an
 * account with a second factor opens no session: it leaves a pending sign-in, a row keyed by the
 * hash of a random token that only an HttpOnly cookie holds, valid PENDING_SIGN_IN_MS, which the
 * second factor turns into a session. A passkey may also start a sign-in on its own, without a
 * password: its pending row names no user until the passkey does.
 *
 * Failed second factors are failed sign-ins of the address typed at the password step (decision
 * 018): they push the account into the same back-off, and the back-off holds the second step too.
 * A pending sign-in also ends after MAX_ATTEMPTS failures, so one password proof buys few guesses.
 */
const MAX_ATTEMPTS = 5;

const signInExpired = () =>
  new HttpError(401, ERROR_CODES.signInExpired, 'The sign-in expired; please sign in again with your password');

const ipOf = (actor: Actor) => originOf(actor)?.ip ?? 'system';

/** The methods an account offers at the second step; none means it has no second factor. */
export async function methodsOf(ctx: AppContext, userId: number): Promise<SecondFactorMethod[]> {
  const [keys, totp, codes] = await Promise.all([
    repo.listPasskeys(ctx.db, userId),
    repo.findTotp(ctx.db, userId),
    repo.unusedRecoveryCodes(ctx.db, userId),
  ]);
  const methods: SecondFactorMethod[] = [];
  if (keys.length > 0) methods.push('passkey');
  if (totp?.confirmedAt) methods.push('totp');
  if (methods.length > 0 && codes > 0) methods.push('recoveryCode');
  return methods;
}

/** After a right password: the pending sign-in's token (for its cookie) and what the client is told. */
export async function beginSecondFactor(
  ctx: AppContext,
  userId: number,
  loginEmail: string,
  methods: SecondFactorMethod[],
): Promise<{ pending: string; body: SecondFactorNeeded }> {
  const { token, id } = newChallengeToken();
  await repo.putChallenge(ctx.db, {
    id,
    kind: 'signIn',
    userId,
    loginEmail,
    challenge: null,
    expiresAt: new Date(Date.now() + PENDING_SIGN_IN_MS).toISOString(),
  });
  return { pending: token, body: { secondFactor: { methods } } };
}

/**
 * Passkey options for a sign-in. With a pending sign-in (the password was right): that user's
 * passkeys. Without: any passkey of the portal, and a new pending sign-in whose token is returned
 * for the cookie.
 */
export async function passkeySignInOptions(
  ctx: AppContext,
  pendingToken: string | undefined,
): Promise<{ pending: string | null; body: WebAuthnOptions }> {
  const row = pendingToken ? await repo.findChallenge(ctx.db, hashToken(pendingToken)) : undefined;
  if (row?.kind === 'signIn' && row.userId !== null) {
    const options = await passkeys.authenticationOptions(ctx.config, await repo.listPasskeys(ctx.db, row.userId));
    await repo.setChallenge(ctx.db, row.id, options.challenge);
    return { pending: null, body: options as unknown as WebAuthnOptions };
  }
  const options = await passkeys.authenticationOptions(ctx.config, null);
  const { token, id } = newChallengeToken();
  await repo.putChallenge(ctx.db, {
    id,
    kind: 'passkeySignIn',
    userId: null,
    loginEmail: null,
    challenge: options.challenge,
    expiresAt: new Date(Date.now() + PENDING_SIGN_IN_MS).toISOString(),
  });
  return { pending: token, body: options as unknown as WebAuthnOptions };
}

type Pending = NonNullable<Awaited<ReturnType<typeof repo.findChallenge>>>;

/** The user a passkey assertion proves, or null. Its counter moves on success. */
async function checkPasskey(ctx: AppContext, row: Pending, body: Extract<SecondFactorBody, { method: 'passkey' }>) {
  if (!row.challenge) return null;
  const stored = await repo.findPasskeyByCredentialId(ctx.db, body.credential.id);
  if (!stored || (row.userId !== null && stored.userId !== row.userId)) return null;
  // One challenge, one assertion: a replayed or second try needs new options.
  await repo.setChallenge(ctx.db, row.id, '');
  const counter = await passkeys.verifyAuthentication(
    ctx.config,
    body.credential,
    row.challenge,
    stored,
    row.kind === 'passkeySignIn',
  );
  if (counter === null) return { userId: stored.userId, ok: false };
  await repo.passkeyUsed(ctx.db, stored.id, counter);
  return { userId: stored.userId, ok: true };
}

/**
 * The second factor, or a password-less passkey: opens the session and answers the profile as the
 * password sign-in does. `profileOf` is the sign-in's own (auth/service.ts).
 */
export async function completeSignIn(
  ctx: AppContext,
  actor: Actor,
  pendingToken: string | undefined,
  body: SecondFactorBody,
  profileOf: (userId: number) => Promise<Profile>,
): Promise<{ session: string; body: Profile }> {
  const { db } = ctx;
  const row = pendingToken ? await repo.findChallenge(db, hashToken(pendingToken)) : undefined;
  if (!row || row.kind === 'passkeyRegistration') throw signInExpired();
  if (row.kind === 'passkeySignIn' && body.method !== 'passkey') throw signInExpired();

  let userId = row.userId;
  let ok = false;
  if (body.method === 'passkey') {
    const checked = await checkPasskey(ctx, row, body);
    // An unknown passkey names no account: nothing to count it against.
    if (!checked) throw secondFactorInvalid('This passkey is not registered for this sign-in');
    userId = checked.userId;
    ok = checked.ok;
  }
  if (userId === null) throw signInExpired();
  const user = await authRepo.findUserById(db, userId);
  if (!user) throw signInExpired();
  const email = row.loginEmail ?? user.email;
  const wait = await loginWait(db, email);
  if (wait > 0) throw loginDelayed(wait);
  if (body.method === 'totp') ok = await acceptTotpCode(ctx, userId, body.code, false);
  if (body.method === 'recoveryCode') ok = await repo.useRecoveryCode(db, userId, hashRecoveryCode(body.code));

  const ip = ipOf(actor);
  if (!ok || user.status !== 'enabled') {
    await authRepo.recordLoginAttempt(db, { email, ip, success: false });
    if ((await repo.failChallenge(db, row.id)) >= MAX_ATTEMPTS) await repo.deleteChallenge(db, row.id);
    throw secondFactorInvalid(
      body.method === 'passkey' ? 'The passkey could not be verified' : 'The code is wrong or was already used',
    );
  }
  await repo.deleteChallenge(db, row.id);
  await authRepo.recordLoginAttempt(db, { email, ip, success: true });
  await authRepo.touchLastLogin(db, userId);
  const session = await startSession(ctx, actor, userId);
  ctx.log.info({ userId, method: body.method }, 'signed in with a second factor');
  return { session, body: await profileOf(userId) };
}

/** Forgets pending sign-ins and registration challenges past their expiry; a scheduled job runs it. */
export function purgeExpiredChallenges(ctx: AppContext, now = Date.now()): Promise<number> {
  return repo.purgeChallenges(ctx.db, new Date(now).toISOString());
}
