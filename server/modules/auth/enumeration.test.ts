import * as argon2 from '@node-rs/argon2';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { RESET_ANSWER_FLOOR_MS } from './service';
import { nextIp, solvedCaptcha } from './test-helpers';

/**
 * Nothing in an answer may tell whether an e-mail address has an account: not the status, the body,
 * the headers, nor the time taken. Time is checked by the work done rather than by a stopwatch: every
 * sign-in costs one argon2 computation; a reset request writes its token and mail before answering,
 * and every reset answer, known address or not, waits for the same floor.
 */
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...original, hash: vi.fn(original.hash), verify: vi.fn(original.verify) };
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    { RATE_LIMIT_LOGIN_PER_MINUTE: '0', RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '0' },
    { captchaMaxNumber: 2000 },
  );
});
afterAll(async () => t?.close());

/** What a client can see of an answer, but for the date and the rate-limit counters. */
function visible(response: LightMyRequestResponse) {
  const headers = Object.fromEntries(
    Object.entries(response.headers).filter(([name]) => name !== 'date' && !name.startsWith('x-ratelimit')),
  );
  return { status: response.statusCode, headers, body: response.body };
}

describe('sign-in', () => {
  it('answers a wrong password, an unknown e-mail, a disabled and a password-less account identically, with one argon2 computation each', async () => {
    const { db } = t.app.ctx;
    const enabled = await createUser(db);
    const disabled = await createUser(db, { status: 'disabled' });
    const passwordless = await createUser(db, { password: null });
    const cases: [string, string][] = [
      [enabled.email, 'Wrong-Password-123!'],
      ['nobody-at-all@example.com', TEST_PASSWORD],
      [disabled.email, TEST_PASSWORD],
      [passwordless.email, TEST_PASSWORD],
    ];
    const answers = [];
    for (const [email, password] of cases) {
      vi.mocked(argon2.hash).mockClear();
      vi.mocked(argon2.verify).mockClear();
      // each from its own address, so the per-IP failure count cannot tell them apart either
      const response = await request(t.app, null, {
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: nextIp(),
        payload: { email, password },
      });
      const work = vi.mocked(argon2.hash).mock.calls.length + vi.mocked(argon2.verify).mock.calls.length;
      expect(work, email).toBe(1);
      answers.push(visible(response));
    }
    expect(answers[0].status).toBe(401);
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  });
});

describe('password-reset request', () => {
  const requestReset = async (email: string) =>
    request(t.app, null, {
      method: 'POST',
      url: '/api/auth/request-password-reset',
      remoteAddress: nextIp(),
      payload: { email, recaptchaResponse: await solvedCaptcha(t.app) },
    });

  it('answers a known, an unknown and a disabled address identically', async () => {
    const known = await createUser(t.app.ctx.db);
    const disabled = await createUser(t.app.ctx.db, { status: 'disabled' });
    const answers = [
      visible(await requestReset(known.email)),
      visible(await requestReset('nobody-here-either@example.com')),
      visible(await requestReset(disabled.email)),
    ];
    expect(answers[0].status).toBe(200);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('writes the token and the mail before answering, and answers no sooner for an unknown address', async () => {
    const { db } = t.app.ctx;
    const known = await createUser(db);
    const disabled = await createUser(db, { status: 'disabled' });
    const timed = async (email: string) => {
      const recaptchaResponse = await solvedCaptcha(t.app);
      const start = performance.now();
      const response = await request(t.app, null, {
        method: 'POST',
        url: '/api/auth/request-password-reset',
        remoteAddress: nextIp(),
        payload: { email, recaptchaResponse },
      });
      expect(response.statusCode).toBe(200);
      return performance.now() - start;
    };

    expect(await timed(known.email)).toBeGreaterThanOrEqual(RESET_ANSWER_FLOOR_MS - 2);
    // right after the answer, without waiting for anything: the mail and its token are stored
    const [mail] = await db.selectFrom('mailOutbox').selectAll().where('toAddress', '=', known.email).execute();
    expect(mail).toMatchObject({ template: 'passwordReset', status: 'pending' });
    const tokens = await db.selectFrom('passwordResetTokens').select('id').where('userId', '=', known.id).execute();
    expect(tokens).toHaveLength(1);

    // an unknown or disabled address writes nothing, yet takes at least as long
    for (const email of ['nobody-at-all-here@example.com', disabled.email]) {
      expect(await timed(email), email).toBeGreaterThanOrEqual(RESET_ANSWER_FLOOR_MS - 2);
      expect(await db.selectFrom('mailOutbox').select('id').where('toAddress', '=', email).execute()).toHaveLength(0);
    }
  });
});
