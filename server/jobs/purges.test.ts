import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_IDLE_TIMEOUT_MS } from '../../common/constants';
import { buildApp } from '../app';
import type { AppContext } from '../context';
import { purgeUsedCaptchas } from '../integrations/captcha';
import { ATTEMPTS_KEPT_MS, purgeExpiredResetTokens, purgeOldLoginAttempts } from '../modules/auth/service';
import { purgeExpiredSessions } from '../modules/sessions/service';
import { createUser } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { SCHEDULED_JOBS } from '../job-kinds';

/** The purges, called directly as a job calls them; and the app starting them on its own. */
let t: TestApp;
let ctx: AppContext;
beforeAll(async () => {
  t = await createTestApp();
  ctx = t.app.ctx;
});
afterAll(async () => t?.close());

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

async function seedOldAndFresh(userId: number, tag: string) {
  const { db } = ctx;
  await db
    .insertInto('sessions')
    .values([
      {
        id: `${tag}-idle`,
        userId,
        createdAt: ago(SESSION_IDLE_TIMEOUT_MS * 2),
        lastSeenAt: ago(SESSION_IDLE_TIMEOUT_MS + 60_000),
        ip: null,
        userAgent: null,
      },
      { id: `${tag}-live`, userId, createdAt: ago(60_000), lastSeenAt: ago(60_000), ip: null, userAgent: null },
    ])
    .execute();
  await db
    .insertInto('passwordResetTokens')
    .values([
      { userId, tokenHash: `${tag}-expired`, createdAt: ago(7_200_000), expiresAt: ago(3_600_000), usedAt: null },
      { userId, tokenHash: `${tag}-valid`, createdAt: ago(60_000), expiresAt: inFuture(3_600_000), usedAt: null },
    ])
    .execute();
  await db
    .insertInto('loginAttempts')
    .values([
      { email: `${tag}@example.com`, ip: '10.1.1.1', success: 0, createdAt: ago(ATTEMPTS_KEPT_MS + 60_000) },
      { email: `${tag}@example.com`, ip: '10.1.1.1', success: 0, createdAt: ago(60_000) },
    ])
    .execute();
  await db
    .insertInto('usedCaptchas')
    .values([
      { signature: `${tag}-expired`, expiresAt: ago(60_000) },
      { signature: `${tag}-valid`, expiresAt: inFuture(60_000) },
    ])
    .execute();
}

async function remaining(tag: string) {
  const { db } = ctx;
  const sessions = await db.selectFrom('sessions').select('id').where('id', 'like', `${tag}-%`).execute();
  const tokens = await db
    .selectFrom('passwordResetTokens')
    .select('tokenHash')
    .where('tokenHash', 'like', `${tag}-%`)
    .execute();
  const attempts = await db
    .selectFrom('loginAttempts')
    .select('createdAt')
    .where('email', '=', `${tag}@example.com`)
    .execute();
  const captchas = await db
    .selectFrom('usedCaptchas')
    .select('signature')
    .where('signature', 'like', `${tag}-%`)
    .execute();
  return {
    sessions: sessions.map((r) => r.id),
    tokens: tokens.map((r) => r.tokenHash),
    attempts: attempts.length,
    captchas: captchas.map((r) => r.signature),
  };
}

const onlyFresh = (tag: string) => ({
  sessions: [`${tag}-live`],
  tokens: [`${tag}-valid`],
  attempts: 1,
  captchas: [`${tag}-valid`],
});

describe('purges', () => {
  it('delete what has expired and nothing else', async () => {
    const user = await createUser(ctx.db);
    await seedOldAndFresh(user.id, 'direct');
    expect(await purgeExpiredSessions(ctx)).toBe(1);
    expect(await purgeExpiredResetTokens(ctx)).toBe(1);
    expect(await purgeOldLoginAttempts(ctx)).toBe(1);
    expect(await purgeUsedCaptchas(ctx.db)).toBe(1);
    expect(await remaining('direct')).toEqual(onlyFresh('direct'));
  });

  it('are scheduled jobs that the app starts with itself', async () => {
    const names = SCHEDULED_JOBS.map((job) => job.name);
    expect(names).toEqual(
      expect.arrayContaining(['purge.sessions', 'purge.reset-tokens', 'purge.login-attempts', 'purge.used-captchas']),
    );

    const user = await createUser(ctx.db);
    await seedOldAndFresh(user.id, 'started');
    const app = await buildApp(t.config, { database: t.database });
    try {
      await app.ready();
      await app.ctx.jobs.idle();
      expect(await remaining('started')).toEqual(onlyFresh('started'));
    } finally {
      await app.close();
    }
  });
});
