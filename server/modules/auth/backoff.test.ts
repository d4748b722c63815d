import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { BACKOFF_MAX_DELAY_MS, backoffDelay } from './backoff';
import { nextIp, solvedCaptcha } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '0' });
});
afterAll(async () => t?.close());

const WRONG = 'Wrong-password-123!';

const loginAs = (email: string, password: string, recaptchaResponse?: string) =>
  request(t.app, null, {
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: nextIp(),
    payload: { email, password, ...(recaptchaResponse ? { recaptchaResponse } : {}) },
  });

/** Fails `count` times for `email` the way a determined guesser would: solving each captcha asked for. */
async function fail(email: string, count: number) {
  for (let i = 0; i < count; i++) {
    let answer = await loginAs(email, WRONG);
    if (answer.statusCode === 420) answer = await loginAs(email, WRONG, await solvedCaptcha(t.app));
    expect(answer.statusCode, `failure ${i + 1}`).toBe(401);
  }
}

/** Moves the recorded attempts of `email` into the past, as if `ms` had gone by. */
async function letTimePass(email: string, ms: number) {
  const rows = await t.app.ctx.db
    .selectFrom('loginAttempts')
    .select(['id', 'createdAt'])
    .where('email', '=', email)
    .execute();
  for (const row of rows) {
    const createdAt = new Date(Date.parse(row.createdAt) - ms).toISOString();
    await t.app.ctx.db.updateTable('loginAttempts').set({ createdAt }).where('id', '=', row.id).execute();
  }
}

const attemptsOf = async (email: string) =>
  (await t.app.ctx.db.selectFrom('loginAttempts').select('id').where('email', '=', email).execute()).length;

describe('per-account back-off after repeated failed sign-ins', () => {
  it('grows from one minute, doubling, and stops at a cap of minutes', () => {
    expect([0, 4, 5, 6, 7, 8, 9, 50].map(backoffDelay)).toEqual([
      0, 0, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000,
    ]);
    expect(BACKOFF_MAX_DELAY_MS).toBeLessThanOrEqual(15 * 60_000);
  });

  it('refuses the account for a while after 5 failures, even with the right password and a captcha', async () => {
    const user = await createUser(t.app.ctx.db);
    await fail(user.email, 5);
    const recorded = await attemptsOf(user.email);

    const refused = await loginAs(user.email, TEST_PASSWORD, await solvedCaptcha(t.app));
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('login_delayed');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(50);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Waiting is all that ends it: a refused attempt is not counted and does not extend the delay.
    expect(await attemptsOf(user.email)).toBe(recorded);

    // Other accounts are not affected.
    const other = await createUser(t.app.ctx.db);
    expect((await loginAs(other.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('lets the right password in once the delay is over, and then forgets the failures', async () => {
    const user = await createUser(t.app.ctx.db);
    await fail(user.email, 5);
    expect((await loginAs(user.email, TEST_PASSWORD)).statusCode).toBe(429);

    await letTimePass(user.email, 61_000);
    const captcha = await solvedCaptcha(t.app);
    expect((await loginAs(user.email, TEST_PASSWORD, captcha)).statusCode).toBe(200);
    // The owner proved who they are: one more mistake brings no delay.
    expect((await loginAs(user.email, WRONG)).statusCode).toBe(401);
    expect((await loginAs(user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('makes each further failure wait longer, up to the cap', async () => {
    const user = await createUser(t.app.ctx.db);
    await fail(user.email, 5);
    await letTimePass(user.email, 61_000);
    await fail(user.email, 1);
    const second = await loginAs(user.email, TEST_PASSWORD);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(60);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(120);

    for (let i = 0; i < 4; i++) {
      await letTimePass(user.email, BACKOFF_MAX_DELAY_MS + 1000);
      await fail(user.email, 1);
    }
    const capped = await loginAs(user.email, TEST_PASSWORD);
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeLessThanOrEqual(BACKOFF_MAX_DELAY_MS / 1000);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(BACKOFF_MAX_DELAY_MS / 1000 - 60);
  });

  it('does not count requests that bring no solved captcha, so they cannot lock anyone out', async () => {
    const user = await createUser(t.app.ctx.db);
    await fail(user.email, 3);
    for (let i = 0; i < 10; i++) expect((await loginAs(user.email, WRONG)).statusCode).toBe(420);
    for (let i = 0; i < 3; i++) expect((await loginAs(user.email, WRONG, 'not-a-solution')).statusCode).toBe(420);
    expect((await loginAs(user.email, TEST_PASSWORD, await solvedCaptcha(t.app))).statusCode).toBe(200);
  });

  it('answers an unknown e-mail the same way, so the delay tells nothing about who has an account', async () => {
    const known = await createUser(t.app.ctx.db);
    const unknown = `nobody-${Date.now()}@example.com`;
    await fail(known.email, 5);
    await fail(unknown, 5);
    const [a, b] = [await loginAs(known.email, WRONG), await loginAs(unknown, WRONG)];
    expect([a.statusCode, b.statusCode]).toEqual([429, 429]);
    expect(b.json()).toEqual(a.json());
    // The unknown e-mail failed a moment later, so its wait may end a second or two later.
    expect(Math.abs(Number(b.headers['retry-after']) - Number(a.headers['retry-after']))).toBeLessThanOrEqual(3);
  });
});
