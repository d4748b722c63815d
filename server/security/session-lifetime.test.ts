import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, SESSION_IDLE_TIMEOUT_MS } from '../../common/constants';
import { loadConfig } from '../config';
import { purgeExpiredSessions } from '../modules/sessions/service';
import { createUser, login, TEST_PASSWORD } from '../test/factories';
import { createTestApp, request, type TestApp } from '../test/harness';

/** Sessions end at an absolute lifetime after sign-in, whatever the activity (docs/security.md). */

const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

let t: TestApp;
let short: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '0' });
  short = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '0', SESSION_LIFETIME_DAYS: '0.25' });
});
afterAll(async () => {
  await t?.close();
  await short?.close();
});

const sessionCookie = (response: LightMyRequestResponse) => response.cookies.find((c) => c.name === SESSION_COOKIE);
const me = (app: TestApp, cookie: string) => request(app.app, cookie, { method: 'GET', url: '/api/auth/me' });

/** Signs in, then dates the session as if it had started `startedAgo` and was last used `usedAgo`. */
async function sessionOf(app: TestApp, startedAgo: number, usedAgo = 2 * 60_000) {
  const user = await createUser(app.app.ctx.db);
  const cookie = await login(app.app, user.email);
  await app.app.ctx.db
    .updateTable('sessions')
    .set({ createdAt: ago(startedAgo), lastSeenAt: ago(usedAgo) })
    .where('userId', '=', user.id)
    .execute();
  return { user, cookie };
}

const sessionCount = async (app: TestApp, userId: number) =>
  (await app.app.ctx.db.selectFrom('sessions').select('id').where('userId', '=', userId).execute()).length;

describe('absolute session lifetime', () => {
  it('is 30 days unless SESSION_LIFETIME_DAYS says otherwise', () => {
    expect(loadConfig({}).sessionLifetimeMs).toBe(30 * DAY);
    expect(loadConfig({ SESSION_LIFETIME_DAYS: '7' }).sessionLifetimeMs).toBe(7 * DAY);
    expect(() => loadConfig({ SESSION_LIFETIME_DAYS: '0' })).toThrow(/SESSION_LIFETIME_DAYS/);
  });

  it('ends a session 30 days after sign-in even when it was used minutes ago', async () => {
    const { user, cookie } = await sessionOf(t, 30 * DAY + 60_000);
    const answer = await me(t, cookie);
    expect(answer.statusCode).toBe(401);
    expect(await sessionCount(t, user.id)).toBe(0);
  });

  it('keeps an active session before then; its cookie never outlives what is left', async () => {
    const early = await sessionOf(t, 2 * DAY);
    const fresh = await me(t, early.cookie);
    expect(fresh.statusCode).toBe(200);
    expect(sessionCookie(fresh)?.maxAge).toBe(SESSION_IDLE_TIMEOUT_MS / 1000);

    // One hour left: the sliding cookie is cut to that hour, not the 12-hour idle timeout.
    const late = await sessionOf(t, 30 * DAY - 60 * 60_000);
    const answer = await me(t, late.cookie);
    expect(answer.statusCode).toBe(200);
    const maxAge = sessionCookie(answer)?.maxAge ?? Infinity;
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(maxAge).toBeGreaterThan(3500);
  });

  it('follows the configured lifetime, at sign-in too', async () => {
    const user = await createUser(short.app.ctx.db);
    const signedIn = await request(short.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    // A 6-hour lifetime is shorter than the idle timeout: the first cookie already stops there.
    expect(signedIn.statusCode).toBe(200);
    expect(sessionCookie(signedIn)?.maxAge).toBe(6 * 60 * 60);

    const { cookie } = await sessionOf(short, 6 * 60 * 60_000 + 60_000);
    expect((await me(short, cookie)).statusCode).toBe(401);
    const { cookie: younger } = await sessionOf(short, 5 * 60 * 60_000);
    expect((await me(short, younger)).statusCode).toBe(200);
  });

  it('purges sessions past their lifetime as well as idle ones', async () => {
    const old = await sessionOf(t, 31 * DAY);
    const idle = await sessionOf(t, DAY, SESSION_IDLE_TIMEOUT_MS + 60_000);
    const alive = await sessionOf(t, DAY);
    expect(await purgeExpiredSessions(t.app.ctx)).toBeGreaterThanOrEqual(2);
    expect(await sessionCount(t, old.user.id)).toBe(0);
    expect(await sessionCount(t, idle.user.id)).toBe(0);
    expect(await sessionCount(t, alive.user.id)).toBe(1);
  });
});
