import * as argon2 from '@node-rs/argon2';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, TEST_PASSWORD } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { nextIp, solvedCaptcha } from './test-helpers';

/**
 * Nothing in an answer may tell whether an e-mail address has an account: not the status, the body,
 * the headers, nor the time taken. Time is checked by the work done rather than by a stopwatch: every
 * sign-in costs one argon2 computation, and a reset request does its lookup and mail after answering.
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
    await t.app.ctx.tasks.idle();
  });

  it('answers before looking the address up and queueing the mail, so its timing tells nothing', async () => {
    const known = await createUser(t.app.ctx.db);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const send = vi.spyOn(t.app.ctx.mail, 'send').mockImplementation(() => gate);
    try {
      const answered = await Promise.race([
        requestReset(known.email),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      expect(answered, 'the answer waited for the mail').not.toBeNull();
      expect(answered?.statusCode).toBe(200);
      await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(1));
      expect(send.mock.calls[0][0]).toMatchObject({ to: known.email, template: 'passwordReset' });
    } finally {
      release();
      await t.app.ctx.tasks.idle();
      send.mockRestore();
    }
  });
});
