import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../common/constants';
import { createUser, TEST_PASSWORD } from '../../test/factories';
import { BASE_URL, createTestApp, request, sessionCookieOf, type TestApp } from '../../test/harness';
import { nextIp, solvedCaptcha } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { captchaMaxNumber: 2000 });
});
afterAll(async () => t?.close());

const loginAs = (email: string, password: string, ip: string, recaptchaResponse?: string) =>
  request(t.app, null, {
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    payload: { email, password, ...(recaptchaResponse ? { recaptchaResponse } : {}) },
  });

describe('POST /api/auth/login', () => {
  it('400: the e-mail must look like one and the password is required', async () => {
    const ip = nextIp();
    const badEmail = await loginAs('not-an-email', 'x', ip);
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.code).toBe('validation_error');
    const noPassword = await request(t.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ip,
      payload: { email: 'someone@example.com' },
    });
    expect(noPassword.statusCode).toBe(400);
  });

  it('answers one identical 401 for a wrong password, an unknown, a disabled or a password-less account', async () => {
    const ip = nextIp();
    const enabled = await createUser(t.app.ctx.db);
    const disabled = await createUser(t.app.ctx.db, { status: 'disabled' });
    const noPassword = await createUser(t.app.ctx.db, { password: null });
    const answers = [
      await loginAs(enabled.email, 'Wrong-password-123!', ip),
      await loginAs('nobody@example.com', TEST_PASSWORD, ip),
      await loginAs(disabled.email, TEST_PASSWORD, ip),
      await loginAs(noPassword.email, TEST_PASSWORD, ip),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ error: { code: 'bad_credentials', message: 'Invalid e-mail or password' } });
      expect(answer.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    }
  });

  it('signs in with an HttpOnly SameSite=Lax session cookie and answers the profile', async () => {
    const user = await createUser(t.app.ctx.db, { fullName: 'Ada Admin', type: 'admin' });
    const response = await loginAs(user.email.toUpperCase(), TEST_PASSWORD, nextIp());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, email: user.email, fullName: 'Ada Admin', yourRole: 'admin' });
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.secure).toBeFalsy();

    const me = await request(t.app, sessionCookieOf(response), { method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(user.email);

    const row = await t.app.ctx.db
      .selectFrom('users')
      .select('lastLoginAt')
      .where('id', '=', user.id)
      .executeTakeFirst();
    expect(row?.lastLoginAt).toBeTruthy();
  });

  it('records every attempt, failed or not', async () => {
    const ip = nextIp();
    const user = await createUser(t.app.ctx.db);
    await loginAs(user.email, 'Wrong-password-123!', ip);
    await loginAs(user.email, TEST_PASSWORD, ip);
    const attempts = await t.app.ctx.db
      .selectFrom('loginAttempts')
      .select(['success', 'ip'])
      .where('email', '=', user.email)
      .orderBy('id')
      .execute();
    expect(attempts).toEqual([
      { success: 0, ip },
      { success: 1, ip },
    ]);
  });

  it('renews the session: signing in again ends the session the request came with', async () => {
    const user = await createUser(t.app.ctx.db);
    const first = sessionCookieOf(await loginAs(user.email, TEST_PASSWORD, nextIp()));
    const again = await request(t.app, first, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(again.statusCode).toBe(200);
    expect(sessionCookieOf(again)).not.toBe(first);
    expect((await request(t.app, first, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
  });

  it('asks for a captcha (HTTP 420) after 3 failures for one e-mail, then accepts a solved one', async () => {
    const ip = nextIp();
    const user = await createUser(t.app.ctx.db);
    const refusals = [];
    for (let i = 0; i < 3; i++) refusals.push(await loginAs(user.email, 'Wrong-password-123!', ip));
    expect(refusals.map((r) => r.statusCode)).toEqual([401, 401, 401]);
    // The third refusal says the next attempt needs the captcha, so a form shows it before that attempt.
    expect(refusals.map((r) => r.json().error.details)).toEqual([
      undefined,
      undefined,
      [{ path: 'recaptchaResponse', message: 'apiErrors.captcha_required' }],
    ]);

    // From another address too: the count is per e-mail.
    const required = await loginAs(user.email, TEST_PASSWORD, nextIp());
    expect(required.statusCode).toBe(420);
    expect(required.json().error.code).toBe('captcha_required');

    const garbage = await loginAs(user.email, TEST_PASSWORD, ip, 'not-a-solution');
    expect(garbage.statusCode).toBe(420);
    expect(garbage.json().error.code).toBe('captcha_invalid');

    const solved = await loginAs(user.email, TEST_PASSWORD, ip, await solvedCaptcha(t.app));
    expect(solved.statusCode).toBe(200);
    expect(solved.json().email).toBe(user.email);

    // The success proved the owner: the e-mail's count starts again.
    expect((await loginAs(user.email, TEST_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('refuses a replayed captcha', async () => {
    const ip = nextIp();
    const user = await createUser(t.app.ctx.db);
    for (let i = 0; i < 3; i++) await loginAs(user.email, 'Wrong-password-123!', ip);
    const solution = await solvedCaptcha(t.app);

    // The captcha is spent even though the password was wrong.
    expect((await loginAs(user.email, 'Wrong-password-123!', ip, solution)).statusCode).toBe(401);
    const replay = await loginAs(user.email, TEST_PASSWORD, ip, solution);
    expect(replay.statusCode).toBe(420);
    expect(replay.json().error.code).toBe('captcha_invalid');

    expect((await loginAs(user.email, TEST_PASSWORD, ip, await solvedCaptcha(t.app))).statusCode).toBe(200);
  });

  it('refuses a captcha whose signature does not match its challenge', async () => {
    const ip = nextIp();
    const user = await createUser(t.app.ctx.db);
    for (let i = 0; i < 3; i++) await loginAs(user.email, 'Wrong-password-123!', ip);
    const solution = JSON.parse(Buffer.from(await solvedCaptcha(t.app), 'base64').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...solution, challenge: { ...solution.challenge, signature: '0'.repeat(64) } }),
    ).toString('base64');
    expect((await loginAs(user.email, TEST_PASSWORD, ip, forged)).json().error.code).toBe('captcha_invalid');
  });

  it('asks for a captcha after 20 failures from one IP address, whatever the e-mail', async () => {
    const ip = nextIp();
    for (let i = 0; i < 20; i++) await loginAs(`nobody-${i}@example.com`, 'Wrong-password-123!', ip);
    const user = await createUser(t.app.ctx.db);
    const response = await loginAs(user.email, TEST_PASSWORD, ip);
    expect(response.statusCode).toBe(420);
    expect(response.json().error.code).toBe('captcha_required');
    expect((await loginAs(user.email, TEST_PASSWORD, nextIp())).statusCode).toBe(200);
  });

  it('refuses a sign-in posted from another site (403)', async () => {
    const user = await createUser(t.app.ctx.db);
    const response = await request(t.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      headers: { origin: 'http://evil.example' },
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('cross_origin');
  });

  it('refuses a body over 1 MiB with the error body (413)', async () => {
    const response = await request(t.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: nextIp(),
      headers: { 'content-type': 'application/json', origin: BASE_URL },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: { code: 'payload_too_large', message: expect.any(String) } });
  });
});

describe('sessions', () => {
  it('401 on /me without a session, and after 12 hours idle', async () => {
    expect((await request(t.app, null, { method: 'GET', url: '/api/auth/me' })).json().error.code).toBe(
      'unauthenticated',
    );
    const user = await createUser(t.app.ctx.db);
    const cookie = sessionCookieOf(await loginAs(user.email, TEST_PASSWORD, nextIp()));
    const thirteenHoursAgo = new Date(Date.now() - 13 * 3600_000).toISOString();
    await t.app.ctx.db
      .updateTable('sessions')
      .set({ lastSeenAt: thirteenHoursAgo })
      .where('userId', '=', user.id)
      .execute();
    const me = await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(401);
    const left = await t.app.ctx.db.selectFrom('sessions').select('id').where('userId', '=', user.id).execute();
    expect(left).toEqual([]);
  });

  it('keeps a session used within 12 hours', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = sessionCookieOf(await loginAs(user.email, TEST_PASSWORD, nextIp()));
    const elevenHoursAgo = new Date(Date.now() - 11 * 3600_000).toISOString();
    await t.app.ctx.db
      .updateTable('sessions')
      .set({ lastSeenAt: elevenHoursAgo })
      .where('userId', '=', user.id)
      .execute();
    expect((await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(200);
  });

  it('POST /api/auth/logout ends the session, and is fine without one', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = sessionCookieOf(await loginAs(user.email, TEST_PASSWORD, nextIp()));
    const out = await request(t.app, cookie, { method: 'POST', url: '/api/auth/logout' });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    expect(out.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe('');
    expect((await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect((await request(t.app, null, { method: 'POST', url: '/api/auth/logout' })).json()).toEqual({ ok: true });
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({
      RATE_LIMIT_LOGIN_PER_MINUTE: '3',
      RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '2',
      TRUST_PROXY: 'true',
    });
  });
  afterAll(async () => limited?.close());

  it('answers 429 with Retry-After past the per-IP sign-in limit', async () => {
    const ip = nextIp();
    const attempt = () =>
      request(limited.app, null, {
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: ip,
        payload: { email: 'someone@example.com', password: 'whatever' },
      });
    for (let i = 0; i < 3; i++) expect((await attempt()).statusCode).toBe(401);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.code).toBe('rate_limited');
    // Another address is not affected.
    const other = await request(limited.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: nextIp(),
      payload: { email: 'someone-else@example.com', password: 'whatever' },
    });
    expect(other.statusCode).toBe(401);
  });

  it('counts the client address the trusted proxy reports, not the proxy’s', async () => {
    const proxy = nextIp();
    const attempt = (client: string) =>
      request(limited.app, null, {
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: proxy,
        headers: { 'x-forwarded-for': client },
        payload: { email: `${client}@example.com`, password: 'whatever' },
      });
    for (let i = 0; i < 3; i++) expect((await attempt('203.0.113.7')).statusCode).toBe(401);
    expect((await attempt('203.0.113.7')).statusCode).toBe(429);
    expect((await attempt('203.0.113.8')).statusCode).toBe(401);
  });

  it('limits password-reset requests the same way', async () => {
    const ip = nextIp();
    const attempt = () =>
      request(limited.app, null, {
        method: 'POST',
        url: '/api/auth/request-password-reset',
        remoteAddress: ip,
        payload: { email: 'someone@example.com', recaptchaResponse: 'x' },
      });
    for (let i = 0; i < 2; i++) expect((await attempt()).statusCode).toBe(420);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json().error.code).toBe('rate_limited');
  });
});

// Runs where a Redis server is at hand (TEST_REDIS_URL); the memory store above covers the logic.
describe.skipIf(!process.env.TEST_REDIS_URL)('rate limits shared through Redis', () => {
  it('two app nodes count sign-ins from one address together', async () => {
    const env = { RATE_LIMIT_LOGIN_PER_MINUTE: '3', REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    const [a, b] = [await createTestApp(env), await createTestApp(env)];
    try {
      const ip = `192.0.2.${Math.floor(Math.random() * 250) + 1}`;
      const attempt = (app: TestApp) =>
        request(app.app, null, {
          method: 'POST',
          url: '/api/auth/login',
          remoteAddress: ip,
          payload: { email: `redis-${Date.now()}-${Math.random()}@example.com`, password: 'whatever' },
        });
      const codes = [await attempt(a), await attempt(b), await attempt(a), await attempt(b)].map((r) => r.statusCode);
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
