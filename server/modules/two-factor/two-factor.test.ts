import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PENDING_SIGN_IN_COOKIE } from '../../../common/api/two-factor';
import { SESSION_COOKIE } from '../../../common/constants';
import { createUser, login, TEST_PASSWORD } from '../../test/factories';
import { BASE_URL, createTestApp, request, sessionCookieOf, type TestApp } from '../../test/harness';
import { SoftAuthenticator } from '../../test/passkey-authenticator';
import { nextIp } from '../auth/test-helpers';
import { codeAt } from './totp';

/** Two-factor sign-in through the API (docs/security.md, "Two-factor sign-in"). */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '0' });
});
afterAll(async () => t?.close());

const STEP_MS = 30_000;

function pendingOf(response: { cookies: { name: string; value: string }[] }): string {
  const cookie = response.cookies.find((c) => c.name === PENDING_SIGN_IN_COOKIE);
  if (!cookie) throw new Error('no pending sign-in cookie');
  return `${PENDING_SIGN_IN_COOKIE}=${cookie.value}`;
}

const passwordStep = (email: string, ip = nextIp()) =>
  request(t.app, null, {
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: { email, password: TEST_PASSWORD },
  });

const secondStep = (pending: string | null, payload: object, ip = nextIp()) =>
  request(t.app, pending, { method: 'POST', url: '/api/auth/second-factor', remoteAddress: ip, payload });

/** A client user with an authenticator app: its secret, its recovery codes and a session. */
async function userWithTotp(props: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.app.ctx.db, { type: 'client', ...props });
  const cookie = await login(t.app, user.email);
  const started = await request(t.app, cookie, { method: 'POST', url: '/api/auth/two-factor/totp' });
  expect(started.statusCode).toBe(200);
  const { secret, uri, qrSvg } = started.json();
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(qrSvg).toMatch(/^<svg/);
  const confirmed = await request(t.app, cookie, {
    method: 'POST',
    url: '/api/auth/two-factor/totp/confirm',
    payload: { code: codeAt(secret, Date.now()), name: 'Phone' },
  });
  expect(confirmed.statusCode).toBe(200);
  const { recoveryCodes, status } = confirmed.json();
  expect(recoveryCodes).toHaveLength(10);
  expect(status).toMatchObject({ totp: { name: 'Phone' }, recoveryCodesLeft: 10, passkeys: [] });
  return { ...user, secret: secret as string, recoveryCodes: recoveryCodes as string[], cookie };
}

describe('the authenticator app (TOTP)', () => {
  it('keeps the secret sealed: the database holds no copy of it', async () => {
    const user = await userWithTotp();
    const row = await t.app.ctx.db
      .selectFrom('totpAuthenticators')
      .selectAll()
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.secretSealed).not.toContain(user.secret);
    expect(row.confirmedAt).toBeTruthy();
    const codes = await t.app.ctx.db
      .selectFrom('recoveryCodes')
      .select('codeHash')
      .where('userId', '=', user.id)
      .execute();
    expect(codes.map((c) => c.codeHash)).not.toContain(user.recoveryCodes[0]);
  });

  it('refuses to confirm the set-up with a wrong code', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'client' });
    const cookie = await login(t.app, user.email);
    const { secret } = (await request(t.app, cookie, { method: 'POST', url: '/api/auth/two-factor/totp' })).json();
    const wrong = String((Number(codeAt(secret, Date.now())) + 1) % 1_000_000).padStart(6, '0');
    const answer = await request(t.app, cookie, {
      method: 'POST',
      url: '/api/auth/two-factor/totp/confirm',
      payload: { code: wrong },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('second_factor_invalid');
    const status = await request(t.app, cookie, { method: 'GET', url: '/api/auth/two-factor' });
    expect(status.json().totp).toBeNull();
  });

  it('asks for the second factor after the password, and opens the session only with a right code', async () => {
    const user = await userWithTotp();
    const first = await passwordStep(user.email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ secondFactor: { methods: ['totp', 'recoveryCode'] } });
    expect(first.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    const pending = pendingOf(first);
    expect(first.cookies.find((c) => c.name === PENDING_SIGN_IN_COOKIE)).toMatchObject({
      httpOnly: true,
      path: '/api/auth',
    });

    // the code the set-up used is spent: the same time step is refused (a replay)
    const replayed = await secondStep(pending, { method: 'totp', code: codeAt(user.secret, Date.now()) });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.code).toBe('second_factor_invalid');
    expect(replayed.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();

    const next = codeAt(user.secret, Date.now() + STEP_MS);
    const ok = await secondStep(pending, { method: 'totp', code: next });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: user.id, email: user.email });
    const me = await request(t.app, sessionCookieOf(ok), { method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);

    // the pending sign-in is spent, and so is that code
    const again = await secondStep(pending, { method: 'totp', code: next });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('sign_in_expired');
    const other = pendingOf(await passwordStep(user.email));
    expect((await secondStep(other, { method: 'totp', code: next })).statusCode).toBe(400);
  });

  it('refuses the second step without a pending sign-in, or after it expired', async () => {
    const user = await userWithTotp();
    const none = await secondStep(null, { method: 'totp', code: '123456' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('sign_in_expired');

    const pending = pendingOf(await passwordStep(user.email));
    await t.app.ctx.db
      .updateTable('twoFactorChallenges')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('userId', '=', user.id)
      .execute();
    const late = await secondStep(pending, { method: 'totp', code: codeAt(user.secret, Date.now() + STEP_MS) });
    expect(late.statusCode).toBe(401);
    expect(late.json().error.code).toBe('sign_in_expired');
  });

  it('counts failed second factors toward the back-off of decision 018', async () => {
    const user = await userWithTotp();
    const ip = nextIp();
    const a = pendingOf(await passwordStep(user.email, ip));
    const b = pendingOf(await passwordStep(user.email, ip));
    for (let i = 0; i < 5; i++) {
      const wrong = await secondStep(a, { method: 'totp', code: '000000' }, ip);
      expect(wrong.statusCode).toBe(400);
    }
    // five failures spend the pending sign-in
    expect((await secondStep(a, { method: 'totp', code: '000000' }, ip)).statusCode).toBe(401);
    const failures = await t.app.ctx.db
      .selectFrom('loginAttempts')
      .select('success')
      .where('email', '=', user.email)
      .execute();
    expect(failures.filter((f) => f.success === 0)).toHaveLength(5);
    // the account now waits: even the right code on the other pending sign-in, and the password step
    const held = await secondStep(b, { method: 'totp', code: codeAt(user.secret, Date.now() + STEP_MS) }, ip);
    expect(held.statusCode).toBe(429);
    expect(held.json().error.code).toBe('login_delayed');
    expect(Number(held.headers['retry-after'])).toBeGreaterThan(0);
    const password = await passwordStep(user.email, ip);
    expect(password.statusCode).toBe(429);
  });
});

describe('recovery codes', () => {
  it('sign in once each, and new ones replace the old', async () => {
    const user = await userWithTotp();
    const [first, second] = user.recoveryCodes;
    const ok = await secondStep(pendingOf(await passwordStep(user.email)), {
      method: 'recoveryCode',
      code: first.toUpperCase(),
    });
    expect(ok.statusCode).toBe(200);
    const reused = await secondStep(pendingOf(await passwordStep(user.email)), { method: 'recoveryCode', code: first });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe('second_factor_invalid');

    const status = await request(t.app, user.cookie, { method: 'GET', url: '/api/auth/two-factor' });
    expect(status.json().recoveryCodesLeft).toBe(9);
    const renewed = await request(t.app, user.cookie, {
      method: 'POST',
      url: '/api/auth/two-factor/recovery-codes',
      payload: { password: TEST_PASSWORD },
    });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.headers['cache-control']).toBe('no-store');
    const fresh: string[] = renewed.json().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(second);
    const old = await secondStep(pendingOf(await passwordStep(user.email)), { method: 'recoveryCode', code: second });
    expect(old.statusCode).toBe(400);
    const renewedOk = await secondStep(pendingOf(await passwordStep(user.email)), {
      method: 'recoveryCode',
      code: fresh[3],
    });
    expect(renewedOk.statusCode).toBe(200);
  });

  it('are not given without a factor, and go with the last one', async () => {
    const user = await userWithTotp();
    const removed = await request(t.app, user.cookie, {
      method: 'DELETE',
      url: '/api/auth/two-factor/totp',
      payload: { password: TEST_PASSWORD },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ totp: null, recoveryCodesLeft: 0 });
    const none = await request(t.app, user.cookie, {
      method: 'POST',
      url: '/api/auth/two-factor/recovery-codes',
      payload: { password: TEST_PASSWORD },
    });
    expect(none.statusCode).toBe(400);
    // and the password alone signs in again
    const back = await passwordStep(user.email);
    expect(back.json()).toMatchObject({ id: user.id });
  });
});

describe('removing a factor and new recovery codes ask who is there again', () => {
  const removeTotp = (cookie: string, payload?: object) =>
    request(t.app, cookie, { method: 'DELETE', url: '/api/auth/two-factor/totp', ...(payload ? { payload } : {}) });
  const regenerate = (cookie: string, payload?: object) =>
    request(t.app, cookie, {
      method: 'POST',
      url: '/api/auth/two-factor/recovery-codes',
      ...(payload ? { payload } : {}),
    });

  it('refuses the session alone, a wrong password and a spent code, with a clear error', async () => {
    const user = await userWithTotp();
    for (const answer of [await removeTotp(user.cookie), await regenerate(user.cookie, {})]) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json().error).toMatchObject({
        code: 'identity_confirmation_required',
        message: 'Confirm it is you: give your current password, or a code of your authenticator app',
        details: [{ path: 'password', message: 'errors.required' }],
      });
    }
    const wrong = await removeTotp(user.cookie, { password: 'Not-The-Password-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'wrong_password',
      details: [{ path: 'password', message: 'apiErrors.wrong_password' }],
    });
    // the set-up spent the current time step
    const spent = await regenerate(user.cookie, { code: codeAt(user.secret, Date.now()) });
    expect(spent.statusCode).toBe(400);
    expect(spent.json().error).toMatchObject({
      code: 'second_factor_invalid',
      details: [{ path: 'code', message: 'apiErrors.second_factor_invalid' }],
    });
    const status = await request(t.app, user.cookie, { method: 'GET', url: '/api/auth/two-factor' });
    expect(status.json()).toMatchObject({ totp: { name: 'Phone' }, recoveryCodesLeft: 10 });
    // each wrong answer is a failed sign-in of the account (decision 018)
    const failures = await t.app.ctx.db
      .selectFrom('loginAttempts')
      .select('success')
      .where('email', '=', user.email)
      .where('success', '=', 0)
      .execute();
    expect(failures).toHaveLength(2);
  });

  it('accepts a fresh authenticator code, once, or the current password', async () => {
    const user = await userWithTotp();
    const code = codeAt(user.secret, Date.now() + STEP_MS);
    const renewed = await regenerate(user.cookie, { code });
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().recoveryCodes).toHaveLength(10);
    expect((await removeTotp(user.cookie, { code })).statusCode).toBe(400);
    const removed = await removeTotp(user.cookie, { password: TEST_PASSWORD });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ totp: null, recoveryCodesLeft: 0 });
  });

  it('holds a stolen session to the back-off: guesses of the password wait like sign-ins', async () => {
    const user = await userWithTotp();
    for (let i = 0; i < 5; i++) {
      expect((await removeTotp(user.cookie, { password: `Guess-${i}-Password` })).statusCode).toBe(400);
    }
    const held = await removeTotp(user.cookie, { password: TEST_PASSWORD });
    expect(held.statusCode).toBe(429);
    expect(held.json().error.code).toBe('login_delayed');
  });
});

describe('passkeys (a software authenticator speaking WebAuthn)', () => {
  async function enrol(cookie: string, authenticator: SoftAuthenticator, name = 'Laptop') {
    const options = await request(t.app, cookie, { method: 'POST', url: '/api/auth/two-factor/passkeys/options' });
    expect(options.statusCode).toBe(200);
    expect(options.json().rp).toEqual({ id: 'portal.test', name: 'Customer portal' });
    return request(t.app, cookie, {
      method: 'POST',
      url: '/api/auth/two-factor/passkeys',
      payload: { name, credential: authenticator.create(options.json()) },
    });
  }

  it('adds, renames, signs in with password then passkey, and without password', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'client' });
    const cookie = await login(t.app, user.email);
    const authenticator = new SoftAuthenticator(BASE_URL);
    const added = await enrol(cookie, authenticator);
    expect(added.statusCode).toBe(200);
    expect(added.json().recoveryCodes).toHaveLength(10);
    const [key] = added.json().status.passkeys;
    expect(key).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    const renamed = await request(t.app, cookie, {
      method: 'PATCH',
      url: `/api/auth/two-factor/passkeys/${key.id}`,
      payload: { name: 'Work laptop' },
    });
    expect(renamed.json().passkeys[0].name).toBe('Work laptop');

    // password, then the passkey
    const first = await passwordStep(user.email);
    expect(first.json()).toEqual({ secondFactor: { methods: ['passkey', 'recoveryCode'] } });
    const pending = pendingOf(first);
    const options = await request(t.app, pending, { method: 'POST', url: '/api/auth/passkey/options' });
    expect(options.json().allowCredentials).toHaveLength(1);
    const assertion = authenticator.get(options.json());
    const ok = await secondStep(pending, { method: 'passkey', credential: assertion });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: user.id });
    // an assertion is good once
    const replayed = await secondStep(pendingOf(await passwordStep(user.email)), {
      method: 'passkey',
      credential: assertion,
    });
    expect(replayed.statusCode).toBe(400);

    // the passkey alone: its options set the pending cookie
    const alone = await request(t.app, null, { method: 'POST', url: '/api/auth/passkey/options' });
    expect(alone.json().allowCredentials ?? []).toEqual([]);
    expect(alone.json().userVerification).toBe('required');
    const signedIn = await secondStep(pendingOf(alone), {
      method: 'passkey',
      credential: authenticator.get(alone.json()),
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ id: user.id });
    // a code cannot finish a password-less sign-in
    const noCode = await request(t.app, null, { method: 'POST', url: '/api/auth/passkey/options' });
    expect((await secondStep(pendingOf(noCode), { method: 'recoveryCode', code: 'abcde-fghij' })).statusCode).toBe(401);

    const removed = await request(t.app, cookie, {
      method: 'DELETE',
      url: `/api/auth/two-factor/passkeys/${key.id}`,
      payload: { password: TEST_PASSWORD },
    });
    expect(removed.json()).toMatchObject({ passkeys: [], recoveryCodesLeft: 0 });
  });

  it('refuses a passkey without user verification for a password-less sign-in, and one of another account', async () => {
    const owner = await createUser(t.app.ctx.db, { type: 'client' });
    const unverified = new SoftAuthenticator(BASE_URL, false);
    expect((await enrol(await login(t.app, owner.email), unverified)).statusCode).toBe(200);
    const alone = await request(t.app, null, { method: 'POST', url: '/api/auth/passkey/options' });
    const refused = await secondStep(pendingOf(alone), { method: 'passkey', credential: unverified.get(alone.json()) });
    expect(refused.statusCode).toBe(400);

    const other = await userWithTotp();
    const pending = pendingOf(await passwordStep(other.email));
    const options = await request(t.app, pending, { method: 'POST', url: '/api/auth/passkey/options' });
    const foreign = await secondStep(pending, { method: 'passkey', credential: unverified.get(options.json()) });
    expect(foreign.statusCode).toBe(400);
  });

  it('refuses an answer made for another origin', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'client' });
    const added = await enrol(await login(t.app, user.email), new SoftAuthenticator('https://evil.example'));
    expect(added.statusCode).toBe(400);
    expect(added.json().error.code).toBe('second_factor_invalid');
  });
});
