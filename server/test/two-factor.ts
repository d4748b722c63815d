import type { FastifyInstance } from 'fastify';
import { PENDING_SIGN_IN_COOKIE, PENDING_SIGN_IN_MS } from '../../common/api/two-factor';
import type { DB } from '../db';
import { nowIso } from '../db';
import { hashRecoveryCode } from '../modules/two-factor/recovery';
import { putChallenge } from '../modules/two-factor/repo';
import { newChallengeToken } from '../modules/two-factor/service';
import { codeAt } from '../modules/two-factor/totp';
import { BASE_URL, request } from './harness';
import { SoftAuthenticator } from './passkey-authenticator';

let counter = 0;

/** A pending sign-in of the user (as if the password was right) and an unused recovery code of theirs. */
export async function pendingSignIn(db: DB, user: { id: number; email: string }) {
  const { token, id } = newChallengeToken();
  await putChallenge(db, {
    id,
    kind: 'signIn',
    userId: user.id,
    loginEmail: user.email,
    challenge: null,
    expiresAt: new Date(Date.now() + PENDING_SIGN_IN_MS).toISOString(),
  });
  const code = `matrx-${String(++counter).padStart(5, '2')}`;
  await db
    .insertInto('recoveryCodes')
    .values({ userId: user.id, codeHash: hashRecoveryCode(code), createdAt: nowIso() })
    .execute();
  return { cookie: `${PENDING_SIGN_IN_COOKIE}=${token}`, code };
}

/** What the browser answers to the session's passkey registration options, from a software authenticator. */
export async function passkeyAnswer(app: FastifyInstance, cookie: string) {
  const options = await request(app, cookie, { method: 'POST', url: '/api/auth/two-factor/passkeys/options' });
  if (options.statusCode !== 200) throw new Error(`passkey options: ${options.statusCode} ${options.body}`);
  return { name: 'Matrix key', credential: new SoftAuthenticator(BASE_URL).create(options.json()) };
}

/** Starts an authenticator app's set-up for the session and answers a code it would show now. */
export async function totpSetupCode(app: FastifyInstance, cookie: string) {
  const started = await request(app, cookie, { method: 'POST', url: '/api/auth/two-factor/totp' });
  if (started.statusCode !== 200) throw new Error(`totp set-up: ${started.statusCode} ${started.body}`);
  return codeAt(started.json().secret, Date.now());
}

/** The id of the latest passkey of the user with this address; 0 when none. */
export async function latestPasskeyId(db: DB, email: string) {
  const row = await db
    .selectFrom('passkeys')
    .innerJoin('users', 'users.id', 'passkeys.userId')
    .select('passkeys.id')
    .where('users.email', '=', email)
    .orderBy('passkeys.id', 'desc')
    .executeTakeFirst();
  return row?.id ?? 0;
}

/**
 * Sets up an authenticator app for the session's user, as the settings page does: its secret, to
 * compute further codes (the set-up spent the current time step), and the recovery codes it gave.
 */
export async function enrolTotp(app: FastifyInstance, cookie: string) {
  const started = await request(app, cookie, { method: 'POST', url: '/api/auth/two-factor/totp' });
  if (started.statusCode !== 200) throw new Error(`totp set-up: ${started.statusCode} ${started.body}`);
  const secret: string = started.json().secret;
  const confirmed = await request(app, cookie, {
    method: 'POST',
    url: '/api/auth/two-factor/totp/confirm',
    payload: { code: codeAt(secret, Date.now()) },
  });
  if (confirmed.statusCode !== 200) throw new Error(`totp confirm: ${confirmed.statusCode} ${confirmed.body}`);
  return { secret, recoveryCodes: confirmed.json().recoveryCodes as string[] };
}
