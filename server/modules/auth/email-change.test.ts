import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, login, signedIn, TEST_PASSWORD } from '../../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../../test/harness';
import { BACKOFF_AFTER_FAILURES } from './backoff';
import { issuePasswordResetToken } from './tokens';
import { withText } from '../../test/outbox';

/**
 * Issue 5, 6.2: one's own e-mail changes only with the current password and the link mailed to the
 * new address; the old address is told; the answer reveals nothing and reserves nothing.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '0', RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '0' });
});
afterAll(async () => t?.close());

let seq = 0;
const fresh = (label: string) => `${label}-${Date.now()}-${++seq}@example.com`;

const patchMe = (cookie: string, payload: Record<string, unknown>) =>
  request(t.app, cookie, { method: 'PATCH', url: '/api/auth/me', payload });
const me = (cookie: string) => request(t.app, cookie, { method: 'GET', url: '/api/auth/me' });
const confirm = (token: string) =>
  request(t.app, null, { method: 'POST', url: '/api/auth/confirm-email', payload: { token } });
const signIn = (email: string) =>
  request(t.app, null, { method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } });

async function mailsTo(email: string) {
  return t.app.ctx.db
    .selectFrom('mailOutbox')
    .select(['template', 'bodySealed'])
    .where('toAddress', '=', email)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map(withText(t.app.ctx)));
}

function confirmToken(text: string): string {
  const match = text.match(new RegExp(`${BASE_URL}/(?:en|fr)/confirm-email/([A-Za-z0-9_-]+)`));
  if (!match) throw new Error(`no confirmation link in:\n${text}`);
  return match[1];
}

async function storedEmail(id: number) {
  const row = await t.app.ctx.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow();
  return row.email;
}

describe('changing one’s own e-mail', () => {
  it('asks for the current password, and changes nothing without the right one', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    const target = fresh('wanted');

    const missing = await patchMe(cookie, { email: target });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details).toEqual([{ path: 'currentPassword', message: 'errors.required' }]);
    const wrong = await patchMe(cookie, { email: target, currentPassword: 'Not-The-Password-1!' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('wrong_password');
    expect(wrong.json().error.details).toEqual([{ path: 'currentPassword', message: 'apiErrors.wrong_password' }]);

    expect(await storedEmail(user.id)).toBe(user.email);
    expect(await mailsTo(target)).toEqual([]);
    expect(await mailsTo(user.email)).toEqual([]);
  });

  it('counts wrong current passwords as failed sign-ins, so a stolen session meets the back-off', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    const target = fresh('guess');
    for (let i = 0; i < BACKOFF_AFTER_FAILURES; i++) {
      const wrong = await patchMe(cookie, { email: target, currentPassword: `Wrong-Password-${i}!` });
      expect(wrong.json().error.code).toBe('wrong_password');
    }
    // Now even the right password waits, and so does a sign-in with it.
    const delayed = await patchMe(cookie, { email: target, currentPassword: TEST_PASSWORD });
    expect(delayed.statusCode).toBe(429);
    expect(delayed.json().error.code).toBe('login_delayed');
    expect(Number(delayed.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(user.email)).statusCode).toBe(429);
    expect(await mailsTo(target)).toEqual([]);
  });

  it('takes effect only when the link mailed to the new address is followed, and tells the old address', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    const target = fresh('new');
    const resetToken = await issuePasswordResetToken(t.app.ctx.db, user.id);

    const answer = await patchMe(cookie, { email: target, currentPassword: TEST_PASSWORD });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().email).toBe(user.email);
    expect(await storedEmail(user.id)).toBe(user.email);

    const [notice] = await mailsTo(user.email);
    expect(notice.template).toBe('emailChangeNotice');
    expect(notice.textBody).toContain(target);
    const [confirmation] = await mailsTo(target);
    expect(confirmation.template).toBe('emailChangeConfirm');
    const token = confirmToken(confirmation.textBody);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ email: target });
    expect((await me(cookie)).json().email).toBe(target);
    expect((await signIn(target)).statusCode).toBe(200);
    expect((await signIn(user.email)).statusCode).toBe(401);

    // Single use; and a reset link sent to the old address no longer works.
    expect((await confirm(token)).json().error.code).toBe('invalid_token');
    const reset = await request(t.app, null, {
      method: 'GET',
      url: `/api/auth/check-password-reset?passwordResetToken=${resetToken}`,
    });
    expect(reset.statusCode).toBe(400);
  });

  it('answers the same for an address that has an account, whose mailbox gets no link', async () => {
    const owner = await createUser(t.app.ctx.db);
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    const freeAnswer = await patchMe(cookie, { email: fresh('free'), currentPassword: TEST_PASSWORD });
    const takenAnswer = await patchMe(cookie, { email: owner.email.toUpperCase(), currentPassword: TEST_PASSWORD });
    expect(takenAnswer.statusCode).toBe(freeAnswer.statusCode);
    expect(takenAnswer.json()).toEqual(freeAnswer.json());

    const mails = await mailsTo(owner.email);
    expect(mails.map((m) => m.template)).toEqual(['emailChangeTaken']);
    expect(mails[0].textBody).not.toMatch(/confirm-email/);
    expect(await storedEmail(user.id)).toBe(user.email);
  });

  it('reserves nothing: the address stays free for others, and a late confirmation fails cleanly', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    const target = fresh('contested');
    await patchMe(cookie, { email: target, currentPassword: TEST_PASSWORD });
    const token = confirmToken((await mailsTo(target))[0].textBody);

    const admin = await signedIn(t.app, 'admin');
    const created = await request(t.app, admin.cookie, {
      method: 'POST',
      url: '/api/users',
      payload: { email: target, fullname: 'First Come', type: 'supportEngineer', preferredLocale: 'en' },
    });
    expect(created.statusCode).toBe(201);

    const late = await confirm(token);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('email_taken');
    expect(await storedEmail(user.id)).toBe(user.email);
  });

  it('refuses an unknown, expired, superseded or disabled account’s link', async () => {
    expect((await confirm('unknown-token')).statusCode).toBe(400);

    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    const first = fresh('first');
    const second = fresh('second');
    await patchMe(cookie, { email: first, currentPassword: TEST_PASSWORD });
    await patchMe(cookie, { email: second, currentPassword: TEST_PASSWORD });
    // Only the latest request counts.
    expect((await confirm(confirmToken((await mailsTo(first))[0].textBody))).statusCode).toBe(400);

    const latest = confirmToken((await mailsTo(second))[0].textBody);
    await t.app.ctx.db
      .updateTable('emailChangeTokens')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('userId', '=', user.id)
      .execute();
    expect((await confirm(latest)).statusCode).toBe(400);

    const third = fresh('third');
    await patchMe(cookie, { email: third, currentPassword: TEST_PASSWORD });
    await t.app.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute();
    expect((await confirm(confirmToken((await mailsTo(third))[0].textBody))).statusCode).toBe(400);
    expect(await storedEmail(user.id)).toBe(user.email);
  });
});
