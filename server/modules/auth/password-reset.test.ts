import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, TEST_PASSWORD } from '../../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../../test/harness';
import { nextIp, solvedCaptcha } from './test-helpers';
import { issuePasswordResetToken } from './tokens';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { captchaMaxNumber: 2000 });
});
afterAll(async () => t?.close());

const NEW_PASSWORD = 'Brand-New-Password-42';

async function requestReset(email: string, recaptchaResponse?: string) {
  return request(t.app, null, {
    method: 'POST',
    url: '/api/auth/request-password-reset',
    remoteAddress: nextIp(),
    payload: { email, ...(recaptchaResponse !== undefined ? { recaptchaResponse } : {}) },
  });
}

const check = (token: string) =>
  request(t.app, null, {
    method: 'GET',
    url: `/api/auth/check-password-reset?passwordResetToken=${encodeURIComponent(token)}`,
  });
const reset = (passwordResetToken: string, password: string) =>
  request(t.app, null, {
    method: 'PATCH',
    url: '/api/auth/reset-password',
    payload: { passwordResetToken, password },
    // each attempt from its own address: the per-address limit is not what these tests are about
    remoteAddress: nextIp(),
  });

async function mailboxFor(email: string) {
  // no waiting: the token and the mail are written before the answer
  const response = await t.app.inject({ method: 'GET', url: `/dev/mailbox.json?to=${encodeURIComponent(email)}` });
  expect(response.statusCode).toBe(200);
  return response.json() as { subject: string; text: string; html: string; status: string }[];
}

const tokenOf = (text: string, locale: string) => {
  const match = text.match(new RegExp(`${BASE_URL}/${locale}/reset-password/([A-Za-z0-9_-]+)`));
  if (!match) throw new Error(`no reset link in:\n${text}`);
  return match[1];
};

describe('POST /api/auth/request-password-reset', () => {
  it('400 without an e-mail or a captcha answer', async () => {
    expect((await requestReset('not-an-email', 'x')).statusCode).toBe(400);
    expect((await requestReset('someone@example.com')).statusCode).toBe(400);
  });

  it('420 when the captcha is wrong or replayed', async () => {
    const user = await createUser(t.app.ctx.db);
    const wrong = await requestReset(user.email, 'bm90IGEgc29sdXRpb24=');
    expect(wrong.statusCode).toBe(420);
    expect(wrong.json().error.code).toBe('captcha_invalid');

    const solution = await solvedCaptcha(t.app);
    expect((await requestReset(user.email, solution)).statusCode).toBe(200);
    const replay = await requestReset(user.email, solution);
    expect(replay.statusCode).toBe(420);
    expect(replay.json().error.code).toBe('captcha_invalid');
    expect(await mailboxFor(user.email)).toHaveLength(1);
  });

  it('answers the same for an unknown or disabled account, and sends nothing', async () => {
    const disabled = await createUser(t.app.ctx.db, { status: 'disabled' });
    const known = await createUser(t.app.ctx.db);
    const answers = [
      await requestReset('nobody-here@example.com', await solvedCaptcha(t.app)),
      await requestReset(disabled.email, await solvedCaptcha(t.app)),
      await requestReset(known.email, await solvedCaptcha(t.app)),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ ok: true });
    }
    expect(await mailboxFor('nobody-here@example.com')).toEqual([]);
    expect(await mailboxFor(disabled.email)).toEqual([]);
    expect(await mailboxFor(known.email)).toHaveLength(1);
  });
});

describe('GET /api/auth/check-password-reset and PATCH /api/auth/reset-password', () => {
  it('400 invalid_token for an unknown token', async () => {
    const checked = await check('no-such-token');
    expect(checked.statusCode).toBe(400);
    expect(checked.json().error).toEqual({ code: 'invalid_token', message: 'This token seems invalid.' });
    const used = await reset('no-such-token', NEW_PASSWORD);
    expect(used.statusCode).toBe(400);
    expect(used.json().error.code).toBe('invalid_token');
  });

  it('400 without a token', async () => {
    expect((await request(t.app, null, { method: 'GET', url: '/api/auth/check-password-reset' })).statusCode).toBe(400);
  });

  it('400 invalid_token for an expired token or a disabled user', async () => {
    const user = await createUser(t.app.ctx.db);
    const expired = await issuePasswordResetToken(t.app.ctx.db, user.id, -1000);
    expect((await check(expired)).json().error.code).toBe('invalid_token');
    const disabled = await createUser(t.app.ctx.db, { status: 'disabled' });
    const token = await issuePasswordResetToken(t.app.ctx.db, disabled.id);
    expect((await check(token)).statusCode).toBe(400);
    expect((await reset(token, NEW_PASSWORD)).statusCode).toBe(400);
  });

  it('reports the first failing password rule’s key', async () => {
    const user = await createUser(t.app.ctx.db);
    const token = await issuePasswordResetToken(t.app.ctx.db, user.id);
    const cases: [string, string][] = [
      ['Short-1a', 'password.error.too_short'],
      ['ALL-UPPERCASE-PASSWORD-1', 'password.error.no_lowercase'],
      ['all-lowercase-password-1', 'password.error.no_uppercase'],
      ['No-Digits-In-This-Password', 'password.error.no_number'],
      ['NoPunctuation1234567', 'password.error.no_special_char'],
    ];
    for (const [password, key] of cases) {
      const response = await reset(token, password);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
      expect(response.json().error.details).toEqual([{ path: 'password', message: key }]);
    }
    // The refused attempts did not spend the token.
    expect((await check(token)).statusCode).toBe(200);
  });

  it("answers a usable token with the account's address, which the form's password may not be made of", async () => {
    const user = await createUser(t.app.ctx.db, { email: 'checked.holder@acme-graphs.test' });
    const checked = await check(await issuePasswordResetToken(t.app.ctx.db, user.id));
    expect(checked.statusCode).toBe(200);
    expect(checked.json()).toEqual({ ok: true, email: 'checked.holder@acme-graphs.test' });
  });

  it('refuses a common password and one made of the account’s e-mail address or name, with the message', async () => {
    const user = await createUser(t.app.ctx.db, {
      email: 'marion.leclerc@acme-graphs.test',
      fullName: 'Marion Leclerc',
    });
    const token = await issuePasswordResetToken(t.app.ctx.db, user.id);
    const cases: [string, string, string][] = [
      ['Password12345!!', 'password.error.common', 'password: The password is too easy to guess'],
      [
        'Marion.Leclerc@acme-graphs.test1',
        'password.error.personal',
        'password: The password must not be made of your e-mail',
      ],
      ['M4rion-Leclerc-2024!', 'password.error.personal', 'password: The password must not be made of your e-mail'],
      ['Acme-Graphs-Marion-99!', 'password.error.personal', 'password: The password must not be made of your e-mail'],
    ];
    for (const [password, key, message] of cases) {
      const response = await reset(token, password);
      expect(response.statusCode, password).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
      expect(response.json().error.message).toContain(message);
      expect(response.json().error.details).toEqual([{ path: 'password', message: key }]);
    }
    expect((await check(token)).statusCode).toBe(200);
    // a password of the user's own is taken
    expect((await reset(token, 'Marion-Sunset-Kettle-81!')).statusCode).toBe(200);
  });

  it('end to end: request, mail with the link, check, reset, sessions ended, token spent, new password works', async () => {
    const user = await createUser(t.app.ctx.db, { fullName: 'Rita Reset' });
    const sessionA = await login(t.app, user.email);
    const sessionB = await login(t.app, user.email);

    expect((await requestReset(user.email.toUpperCase(), await solvedCaptcha(t.app))).statusCode).toBe(200);
    const [mail] = await mailboxFor(user.email);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain('Hello Rita Reset,');
    expect(mail.text).toContain('valid for 1 hour');
    const token = tokenOf(mail.text, 'en');
    expect(mail.html).toContain(`href="${BASE_URL}/en/reset-password/${token}"`);

    expect((await check(token)).json()).toEqual({ ok: true, email: user.email });
    const done = await reset(token, NEW_PASSWORD);
    expect(done.statusCode).toBe(200);
    // The account's address comes back, so the sign-in form can be filled with it.
    expect(done.json()).toEqual({ ok: true, email: user.email });

    for (const cookie of [sessionA, sessionB]) {
      expect((await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    }
    const tokenRow = await t.app.ctx.db
      .selectFrom('passwordResetTokens')
      .select('usedAt')
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(tokenRow.usedAt).toBeTruthy();

    expect((await check(token)).statusCode).toBe(400);
    const reuse = await reset(token, 'Another-Password-777');
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error.code).toBe('invalid_token');

    const old = await request(t.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: nextIp(),
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    await login(t.app, user.email, NEW_PASSWORD);
  });

  it('a reset spends the user’s other outstanding tokens', async () => {
    const user = await createUser(t.app.ctx.db);
    const first = await issuePasswordResetToken(t.app.ctx.db, user.id);
    const second = await issuePasswordResetToken(t.app.ctx.db, user.id);
    expect((await reset(second, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await check(first)).statusCode).toBe(400);
  });

  it('a French user gets the French mail and a /fr/ link', async () => {
    const user = await createUser(t.app.ctx.db, { preferredLocale: 'fr', fullName: 'Élodie Dupont' });
    expect((await requestReset(user.email, await solvedCaptcha(t.app))).statusCode).toBe(200);
    const [mail] = await mailboxFor(user.email);
    expect(mail.subject).toBe('Réinitialisez votre mot de passe');
    expect(mail.text).toContain('Bonjour Élodie Dupont,');
    expect(mail.text).toContain('valable 1 heure');
    const token = tokenOf(mail.text, 'fr');
    expect((await check(token)).statusCode).toBe(200);
  });
});

describe('GET /api/captcha/challenge', () => {
  it('gives a signed challenge that expires in 5 minutes', async () => {
    const response = await request(t.app, null, { method: 'GET', url: '/api/captcha/challenge' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.parameters).toMatchObject({
      algorithm: 'PBKDF2/SHA-256',
      keyPrefix: expect.stringMatching(/^[0-9a-f]+$/),
    });
    expect(body.signature).toMatch(/^[0-9a-f]{64}$/);
    const expires = body.parameters.expiresAt;
    expect(expires * 1000 - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(5 * 60_000);
  });
});
