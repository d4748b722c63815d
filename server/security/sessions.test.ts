import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, SESSION_IDLE_TIMEOUT_MS } from '../../common/constants';
import { issuePasswordResetToken } from '../modules/auth/tokens';
import { createUser, login, TEST_PASSWORD } from '../test/factories';
import { createTestApp, request, sessionCookieOf, type TestApp } from '../test/harness';

/**
 * Sessions and cookies, HTTPS and password-reset races: one test per
 * property the portal promises in docs/security.md.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '0',
  });
});
afterAll(async () => {
  await t?.close();
});

const sessionCookie = (response: LightMyRequestResponse) => response.cookies.find((c) => c.name === SESSION_COOKIE);
const me = (cookie: string | null) => request(t.app, cookie, { method: 'GET', url: '/api/auth/me' });
const sessionRows = (userId: number) =>
  t.app.ctx.db.selectFrom('sessions').select(['id', 'lastSeenAt']).where('userId', '=', userId).execute();
const signIn = (email: string, cookie: string | null = null) =>
  request(t.app, cookie, { method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } });

describe('sessions', () => {
  it('never adopts a session id the browser brings (fixation): sign-in issues a fresh one', async () => {
    const user = await createUser(t.app.ctx.db);
    const planted = `${SESSION_COOKIE}=${crypto.randomBytes(32).toString('base64url')}`;
    const response = await signIn(user.email, planted);
    expect(response.statusCode).toBe(200);
    const issued = sessionCookieOf(response);
    expect(issued).not.toBe(planted);
    expect((await me(planted)).statusCode).toBe(401);
    expect((await me(issued)).statusCode).toBe(200);
    // the id is 256 random bits; the database keeps only its hash
    const raw = issued.split('=')[1];
    expect(Buffer.from(raw, 'base64url')).toHaveLength(32);
    const [row] = await sessionRows(user.id);
    expect(row.id).toBe(crypto.createHash('sha256').update(raw).digest('hex'));
  });

  it('renews at sign-in even when the session it came with belongs to someone else', async () => {
    const victim = await createUser(t.app.ctx.db);
    const other = await createUser(t.app.ctx.db);
    const otherCookie = await login(t.app, other.email);
    const response = await signIn(victim.email, otherCookie);
    expect((await me(sessionCookieOf(response))).json().id).toBe(victim.id);
    expect((await me(otherCookie)).statusCode).toBe(401);
  });

  it('sign-out ends the session on the server and clears the cookie with the attributes it was set with', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    const out = await request(t.app, cookie, { method: 'POST', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(200);
    expect(sessionCookie(out)).toMatchObject({ value: '', path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(await sessionRows(user.id)).toEqual([]);
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('slides the cookie lifetime with the idle timeout, without writing on every request', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    const fresh = await me(cookie);
    expect(sessionCookie(fresh)).toBeUndefined();

    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
    await t.app.ctx.db
      .updateTable('sessions')
      .set({ lastSeenAt: twoMinutesAgo })
      .where('userId', '=', user.id)
      .execute();
    const touched = await me(cookie);
    expect(touched.statusCode).toBe(200);
    expect(sessionCookie(touched)).toMatchObject({
      value: cookie.split('=')[1],
      maxAge: SESSION_IDLE_TIMEOUT_MS / 1000,
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
    });
    const [row] = await sessionRows(user.id);
    expect(Date.parse(row.lastSeenAt)).toBeGreaterThan(Date.now() - 10_000);
  });

  it('a disabled account loses its sessions on its next request, however it was disabled, and cannot sign in', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    // disabled behind the API's back (another node, the database), so no session was ended for it
    await t.app.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute();
    expect((await me(cookie)).statusCode).toBe(401);
    expect(await sessionRows(user.id)).toEqual([]);
    const again = await signIn(user.email);
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('bad_credentials');
    expect(sessionCookie(again)).toBeUndefined();
  });
});

describe('over HTTPS', () => {
  let https: TestApp;
  const origin = 'https://portal.example.com';
  beforeAll(async () => {
    https = await createTestApp({ BASE_URL: origin, RATE_LIMIT_LOGIN_PER_MINUTE: '0' });
  });
  afterAll(async () => https?.close());

  it('sets and clears the session cookie Secure, and sends HSTS', async () => {
    const user = await createUser(https.app.ctx.db);
    const headers = { origin };
    const signedInResponse = await request(https.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      headers,
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(signedInResponse.statusCode).toBe(200);
    expect(sessionCookie(signedInResponse)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    expect(signedInResponse.headers['strict-transport-security']).toContain('max-age=');

    const out = await request(https.app, sessionCookieOf(signedInResponse), {
      method: 'POST',
      url: '/api/auth/logout',
      headers,
    });
    expect(sessionCookie(out)).toMatchObject({ value: '', secure: true, httpOnly: true });
  });
});

describe('password-reset tokens', () => {
  it('are single use under concurrency: of two parallel resets with one token, exactly one succeeds', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await createUser(t.app.ctx.db);
      const token = await issuePasswordResetToken(t.app.ctx.db, user.id);
      const passwords = ['First-Parallel-Pass-1', 'Second-Parallel-Pass-2'];
      const answers = await Promise.all(
        passwords.map((password) =>
          request(t.app, null, {
            method: 'PATCH',
            url: '/api/auth/reset-password',
            payload: { passwordResetToken: token, password },
          }),
        ),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toEqual([200, 400]);
      const loser = answers.find((a) => a.statusCode === 400)!;
      expect(loser.json().error.code).toBe('invalid_token');
      // the password that stands is the winner's
      const winner = passwords[answers.findIndex((a) => a.statusCode === 200)];
      const signInWith = (password: string) =>
        request(t.app, null, { method: 'POST', url: '/api/auth/login', payload: { email: user.email, password } });
      expect((await signInWith(winner)).statusCode).toBe(200);
      expect((await signInWith(passwords.find((p) => p !== winner)!)).statusCode).toBe(401);
    }
  });
});
