import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createUser, login, TEST_PASSWORD } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { Browser, oidcEnv, startInteraction } from '../../test/oidc';
import { SmtpPeer } from '../../test/smtp-peer';
import { SupportDesk } from '../../test/support-desk';
import { codeAt } from './totp';

/** REQUIRE_2FA_FOR and an admin's reset of another user's factors (docs/security.md). */

let t: TestApp;
let peer: SmtpPeer;
const desk = new SupportDesk('desk-shared-9c2e7a4f1b8d3e6a0c5f2b9e4d7a1c3f');
beforeAll(async () => {
  peer = new SmtpPeer();
  await desk.listen();
  t = await createTestApp({
    ...oidcEnv(),
    ...desk.env(),
    SMTP_URL: await peer.listen(),
    RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    REQUIRE_2FA_FOR: 'admin, productManager',
  });
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
  await desk.close();
});

async function addTotp(cookie: string) {
  const { secret } = (await request(t.app, cookie, { method: 'POST', url: '/api/auth/two-factor/totp' })).json();
  const confirmed = await request(t.app, cookie, {
    method: 'POST',
    url: '/api/auth/two-factor/totp/confirm',
    payload: { code: codeAt(secret, Date.now()) },
  });
  expect(confirmed.statusCode).toBe(200);
  return secret as string;
}

describe('REQUIRE_2FA_FOR', () => {
  it('accepts staff types only', () => {
    expect(loadConfig({ REQUIRE_2FA_FOR: 'admin,supportEngineer' }).requireTwoFactorFor).toEqual([
      'admin',
      'supportEngineer',
    ]);
    expect(loadConfig({}).requireTwoFactorFor).toEqual([]);
    expect(() => loadConfig({ REQUIRE_2FA_FOR: 'admin,client' })).toThrow(/REQUIRE_2FA_FOR/);
  });

  it('leads a listed user without a factor to enrol: every other call is refused until then', async () => {
    const admin = await createUser(t.app.ctx.db, { type: 'admin' });
    const cookie = await login(t.app, admin.email);
    const me = await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' });
    expect(me.json().twoFactorSetupRequired).toBe(true);
    const users = await request(t.app, cookie, { method: 'GET', url: '/api/users' });
    expect(users.statusCode).toBe(403);
    expect(users.json().error).toMatchObject({ code: 'two_factor_required' });
    expect(users.json().error.message).toMatch(/second factor/);
    expect((await request(t.app, cookie, { method: 'GET', url: '/api/auth/two-factor' })).json().required).toBe(true);

    await addTotp(cookie);
    expect((await request(t.app, cookie, { method: 'GET', url: '/api/users' })).statusCode).toBe(200);
    expect((await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' })).json().twoFactorSetupRequired).toBe(
      false,
    );
    // the last factor stays
    const remove = await request(t.app, cookie, {
      method: 'DELETE',
      url: '/api/auth/two-factor/totp',
      payload: { password: TEST_PASSWORD },
    });
    expect(remove.statusCode).toBe(409);
    expect(remove.json().error.code).toBe('two_factor_required');
  });

  it('opens no other site before the factor: no support desk token, no OpenID Connect sign-in', async () => {
    const admin = await createUser(t.app.ctx.db, { type: 'admin', preferredLocale: 'fr' });
    const cookie = await login(t.app, admin.email);
    const issued = async () =>
      (await t.app.ctx.db.selectFrom('supportJwtIds').select('jti').where('userId', '=', admin.id).execute()).length;
    const desk = await request(t.app, cookie, { url: '/api/jwt/redirect?to=%2Fhc' });
    expect(desk.statusCode).toBe(302);
    expect(desk.headers.location).toBe('/fr/settings');
    expect(desk.body).not.toMatch(/jwt/i);
    expect(await issued()).toBe(0);

    const { uid, cookie: interaction } = await startInteraction(t.app, null, 'login');
    const browser = new Browser(() => t.app);
    for (const part of `${interaction}; ${cookie}`.split('; ')) browser.setCookie(part);
    const step = await browser.follow(`/oidc/interaction/${uid}`);
    expect(step.location).toBe(`${new URL(step.location).origin}/fr/settings`);

    // once a factor is added, both open
    await addTotp(cookie);
    expect((await request(t.app, cookie, { url: '/api/jwt/redirect?to=%2Fhc' })).statusCode).toBe(200);
    expect(await issued()).toBe(1);
    const consent = new URL((await browser.follow(`/oidc/interaction/${uid}`)).location);
    expect(consent.pathname).toBe('/fr/consent');
    expect(consent.searchParams.get('interaction')).toBeTruthy();
  });

  it('leaves other types alone', async () => {
    const support = await createUser(t.app.ctx.db, { type: 'supportEngineer' });
    const cookie = await login(t.app, support.email);
    expect((await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' })).json().twoFactorSetupRequired).toBe(
      false,
    );
    expect((await request(t.app, cookie, { method: 'GET', url: '/api/customers' })).statusCode).toBe(200);
  });
});

describe("an admin's reset of another user's factors", () => {
  it('removes them all, writes the audit entry and tells the user by mail in their language', async () => {
    const admin = await createUser(t.app.ctx.db, { type: 'admin' });
    const adminCookie = await login(t.app, admin.email);
    await addTotp(adminCookie);
    const user = await createUser(t.app.ctx.db, { type: 'client', preferredLocale: 'fr', fullName: 'Chloé Client' });
    await addTotp(await login(t.app, user.email));
    const before = await request(t.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(before.json().secondFactor).toBeDefined();

    const reset = await request(t.app, adminCookie, { method: 'DELETE', url: `/api/users/${user.id}/two-factor` });
    expect(reset.statusCode).toBe(200);

    const after = await request(t.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(after.json()).toMatchObject({ id: user.id });
    const codes = await t.app.ctx.db.selectFrom('recoveryCodes').select('id').where('userId', '=', user.id).execute();
    expect(codes).toEqual([]);

    const audit = await t.app.ctx.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'resetTwoFactor')
      .where('actorId', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(audit.customerId).toBeNull();
    expect(JSON.parse(audit.data)).toEqual({ userId: user.id, email: user.email, factors: 1 });

    await t.app.ctx.jobs.drain();
    const mails = await Promise.all(peer.received.map((raw) => PostalMime.parse(raw)));
    const told = mails.find((mail) => mail.to?.some((to) => to.address === user.email));
    expect(told?.subject).toBe('Les seconds facteurs de votre compte ont été supprimés');
    expect(told?.text).toContain('Chloé Client');
    expect(told?.text).toContain('/fr/login');
  });

  it('is not for one’s own factors, and answers 404 for an unknown user', async () => {
    const admin = await createUser(t.app.ctx.db, { type: 'admin' });
    const cookie = await login(t.app, admin.email);
    await addTotp(cookie);
    const self = await request(t.app, cookie, { method: 'DELETE', url: `/api/users/${admin.id}/two-factor` });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.code).toBe('cannot_edit_self');
    expect((await request(t.app, cookie, { method: 'DELETE', url: '/api/users/999999/two-factor' })).statusCode).toBe(
      404,
    );
  });
});
