import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { PENDING_SIGN_IN_COOKIE } from '../../../common/api/two-factor';
import { createCustomer, createUser, login, signedIn, TEST_PASSWORD } from '../../test/factories';
import { createTestApp, request, sessionCookieOf, type TestApp } from '../../test/harness';
import { enrolTotp } from '../../test/two-factor';
import { codeAt } from '../two-factor/totp';
import { SupportDesk } from '../../test/support-desk';
import { purgeExpiredSupportJwtIds } from './service';
import { jwtIdKnown } from './repo';

/**
 * The hand-off to the support desk (docs/decisions/072) against a local page playing the desk: it
 * receives the posted form, verifies the token with the shared secret and refuses a replayed jti.
 */

const SECRET = 'desk-shared-4b8e1f6a9c3d7e2b5a8f1c4e7d0b3a6f';
const desk = new SupportDesk(SECRET);
let t: TestApp;

beforeAll(async () => {
  await desk.listen();
  t = await createTestApp(desk.env());
});
afterAll(async () => {
  await t?.close();
  await desk.close();
});

const handOff = (cookie: string | null, to?: string, headers: Record<string, string> = {}) =>
  request(t.app, cookie, {
    url: to === undefined ? '/api/jwt/redirect' : `/api/jwt/redirect?to=${encodeURIComponent(to)}`,
    headers,
  });

/** The hidden fields and action of the hand-off page's form. */
function formOf(html: string) {
  const field = (name: string) => {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
    return match ? match[1].replaceAll('&amp;', '&').replaceAll('&quot;', '"') : null;
  };
  return {
    action: /<form[^>]* method="post" action="([^"]+)"/.exec(html)?.[1] ?? null,
    jwt: field('jwt')!,
    returnTo: field('return_to')!,
  };
}

describe('GET /api/jwt/redirect, signed in', () => {
  it('answers a page that posts a token the desk accepts once, for the target on the desk', async () => {
    const customer = await createCustomer(t.app.ctx.db, { name: 'Graph Analytics Ltd' });
    const user = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
    const to = `${desk.origin}/hc/requests/42?tab=open`;
    const response = await handOff(user.cookie, to);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(response.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`form-action ${desk.origin}`);
    expect(csp).not.toContain('unsafe-inline');
    // one script, carrying the nonce; a button for browsers without scripts
    expect(response.body.match(/<script/g)).toHaveLength(1);
    expect(response.body).toContain(`<script nonce="${nonce}">`);
    expect(response.body).toMatch(/<noscript>[\s\S]*<button type="submit">Continue to the support site<\/button>/);
    expect(response.body).toContain('<html lang="en">');

    const form = formOf(response.body);
    expect(form.action).toBe(`${desk.origin}/access/jwt`);
    expect(form.returnTo).toBe(to);
    // the token is in the form only, never in an address
    expect(response.headers.location).toBeUndefined();

    const accepted = await desk.post({ jwt: form.jwt, return_to: form.returnTo });
    expect(accepted).toEqual({ status: 302, location: to });
    const claims = desk.accepted.at(-1)!;
    expect(claims).toMatchObject({
      email: user.email,
      name: 'client user',
      external_id: String(user.id),
      locale: 'en',
      organization: 'Graph Analytics Ltd',
    });
    expect(claims.exp! - claims.iat!).toBe(120);
    expect(await jwtIdKnown(t.app.ctx.db, claims.jti!)).toBe(true);

    const replayed = await desk.post({ jwt: form.jwt, return_to: form.returnTo });
    expect(replayed.status).toBe(401);
    expect(desk.refused.at(-1)).toBe('replayed jti');
  });

  it('issues a new jti each time, and a token signed with another secret is refused by the desk', async () => {
    const user = await signedIn(t.app, 'supportEngineer');
    const first = formOf((await handOff(user.cookie, `${desk.origin}/hc`)).body);
    const second = formOf((await handOff(user.cookie, `${desk.origin}/hc`)).body);
    expect(first.jwt).not.toBe(second.jwt);
    expect((await desk.post({ jwt: first.jwt, return_to: first.returnTo })).status).toBe(302);
    expect((await desk.post({ jwt: second.jwt, return_to: second.returnTo })).status).toBe(302);
    const [jtiA, jtiB] = desk.accepted.slice(-2).map((claims) => claims.jti);
    expect(jtiA).not.toBe(jtiB);
    // staff belong to no customer: no organisation claim
    expect(desk.accepted.at(-1)).not.toHaveProperty('organization');

    const forged = first.jwt.split('.').slice(0, 2).join('.') + '.' + 'A'.repeat(43);
    expect((await desk.post({ jwt: forged, return_to: first.returnTo })).status).toBe(401);
  });

  it('speaks the user’s language on the page', async () => {
    const user = await signedIn(t.app, 'admin');
    await request(t.app, user.cookie, { method: 'PATCH', url: '/api/auth/me', payload: { preferredLocale: 'fr' } });
    const page = (await handOff(user.cookie, `${desk.origin}/hc`)).body;
    expect(page).toContain('<html lang="fr">');
    expect(page).toContain('Continuer vers le site de support');
  });

  it('never leaves the desk’s origin: other origins, //evil, userinfo tricks and javascript: give its home', async () => {
    const user = await signedIn(t.app, 'supportEngineer');
    const home = `${desk.origin}/hc`;
    const port = new URL(desk.origin).port;
    const attempts = [
      'https://evil.example/phish',
      '//evil.example/hc',
      '///evil.example',
      `http://127.0.0.1:${port}@evil.example/`,
      `http://user:pass@127.0.0.1:${port}/hc`,
      `http://127.0.0.1:${Number(port) + 1}/hc`,
      `https://127.0.0.1:${port}/hc`,
      'javascript:alert(document.domain)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      `${desk.origin}\\@evil.example`,
      '/\\evil.example',
      `java\tscript:alert(1)`,
      'http://localhost/',
      'https:evil.example',
    ];
    for (const to of attempts) {
      const response = await handOff(user.cookie, to);
      expect(response.statusCode, to).toBe(200);
      const form = formOf(response.body);
      expect(form.returnTo, to).toBe(home);
      expect(form.action, to).toBe(`${desk.origin}/access/jwt`);
    }
    // a path on the desk, relative or not, is kept
    expect(formOf((await handOff(user.cookie, '/hc/articles/7')).body).returnTo).toBe(`${desk.origin}/hc/articles/7`);
    expect(formOf((await handOff(user.cookie)).body).returnTo).toBe(home);
  });
});

describe('GET /api/jwt/redirect, signed out', () => {
  it('sends a visitor to the login page in their language with the target kept, and issues nothing', async () => {
    const to = `${desk.origin}/hc/requests`;
    const issued = async () => (await t.app.ctx.db.selectFrom('supportJwtIds').select('jti').execute()).length;
    const before = await issued();
    const english = await handOff(null, to);
    expect(english.statusCode).toBe(302);
    expect(english.headers.location).toBe(`/en/login?sso=${encodeURIComponent(to)}`);
    const french = await handOff(null, to, { 'accept-language': 'fr-CA,fr;q=0.9,en;q=0.5' });
    expect(french.headers.location).toBe(`/fr/login?sso=${encodeURIComponent(to)}`);
    // a target off the desk is replaced before the login page ever stores it
    const evil = await handOff(null, 'https://evil.example/');
    expect(evil.headers.location).toBe(`/en/login?sso=${encodeURIComponent(`${desk.origin}/hc`)}`);
    expect(english.body).not.toMatch(/jwt/i);
    expect(await issued()).toBe(before);
  });
});

describe('GET /api/jwt/redirect, for an account with a second factor', () => {
  it('issues no token while the sign-in waits for the second factor: a pending sign-in is not a session', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'client' });
    const { secret } = await enrolTotp(t.app, await login(t.app, user.email));
    const issued = async () =>
      (await t.app.ctx.db.selectFrom('supportJwtIds').select('jti').where('userId', '=', user.id).execute()).length;
    const to = `${desk.origin}/hc/requests`;

    const password = await request(t.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(password.json()).toEqual({ secondFactor: { methods: ['totp', 'recoveryCode'] } });
    const pendingCookie = password.cookies.find((c) => c.name === PENDING_SIGN_IN_COOKIE);
    expect(pendingCookie).toBeDefined();
    const pending = `${PENDING_SIGN_IN_COOKIE}=${pendingCookie!.value}`;

    // the browser holds only the pending sign-in: to the login page, as a visitor
    const early = await handOff(pending, to);
    expect(early.statusCode).toBe(302);
    expect(early.headers.location).toBe(`/en/login?sso=${encodeURIComponent(to)}`);
    expect(early.body).not.toMatch(/jwt/i);
    expect(await issued()).toBe(0);

    const second = await request(t.app, pending, {
      method: 'POST',
      url: '/api/auth/second-factor',
      payload: { method: 'totp', code: codeAt(secret, Date.now() + 30_000) },
    });
    expect(second.statusCode).toBe(200);
    const after = await handOff(sessionCookieOf(second), to);
    expect(after.statusCode).toBe(200);
    const form = formOf(after.body);
    expect(await desk.post({ jwt: form.jwt, return_to: form.returnTo })).toEqual({ status: 302, location: to });
    expect(desk.accepted.at(-1)).toMatchObject({ email: user.email, external_id: String(user.id) });
    expect(await issued()).toBe(1);
  });
});

describe('the hand-off’s settings and upkeep', () => {
  it('answers a page in both languages with the way home (409), never JSON, without a shared secret', async () => {
    const bare = await createTestApp(
      { SUPPORT_JWT_SECRET: '' },
      { supportDesk: { ...t.config.supportDesk, jwtSecret: null } },
    );
    try {
      const config = (await request(bare.app, null, { url: '/api/config' })).json();
      expect(config.supportDesk).toBe(false);
      const user = await signedIn(bare.app, 'admin');
      const cases = [
        { cookie: user.cookie, headers: {}, lang: 'en', text: 'Signing in to a support site is not offered here' },
        {
          cookie: null,
          headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
          lang: 'fr',
          text: 'La connexion à un site de support n&#39;est pas proposée ici',
        },
        { cookie: null, headers: {}, lang: 'en', text: 'Go to the portal' },
      ];
      for (const { cookie, headers, lang, text } of cases) {
        const response = await request(bare.app, cookie, { url: '/api/jwt/redirect?to=%2Fhc', headers });
        expect(response.statusCode).toBe(409);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.body).toContain(`<html lang="${lang}">`);
        expect(response.body).toContain(text);
        expect(response.body).toContain(`href="/${lang}/" data-testid="support-unavailable-home"`);
        expect(response.body).toContain('support_desk_not_configured');
        expect(response.headers['content-security-policy']).toMatch(/default-src 'none'/);
        expect(() => JSON.parse(response.body)).toThrow();
      }
      // the sign-in page is not sent on to sign in for the desk either
      expect((await request(bare.app, null, { url: '/api/jwt/redirect?to=%2Fhc' })).headers.location).toBeUndefined();
    } finally {
      await bare.close();
    }
  });

  it('refuses to start in production with a desk and no secret, or a weak one', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      SMTP_URL: 'smtp://mail.example.com',
      PAYMENT_TEST_CHECKOUT: 'true',
      SUPPORT_URL: 'https://support.example.org',
    };
    expect(() => loadConfig(production)).toThrow(
      /SUPPORT_JWT_SECRET: is required in production when SUPPORT_URL is set/,
    );
    expect(() => loadConfig({ ...production, SUPPORT_JWT_SECRET: 'short' })).toThrow(
      /SUPPORT_JWT_SECRET: must be at least 32/,
    );
    expect(() => loadConfig({ ...production, SUPPORT_JWT_SECRET: 'ab'.repeat(20) })).toThrow(
      /SUPPORT_JWT_SECRET: must not be a repeated pattern/,
    );
    expect(() => loadConfig({ ...production, SUPPORT_JWT_SECRET: 'change-me-please-to-a-value-0123456789' })).toThrow(
      /SUPPORT_JWT_SECRET: must be a random value/,
    );
    const config = loadConfig({ ...production, SUPPORT_JWT_SECRET: SECRET, SUPPORT_JWT_PATH: '/sso/jwt' });
    expect(config.supportDesk).toMatchObject({ jwtUrl: 'https://support.example.org/sso/jwt', jwtSecret: SECRET });
  });

  it('forgets the ids of expired tokens, and only those', async () => {
    const user = await signedIn(t.app, 'admin');
    const form = formOf((await handOff(user.cookie, `${desk.origin}/hc`)).body);
    const jti = JSON.parse(Buffer.from(form.jwt.split('.')[1], 'base64url').toString()).jti as string;
    await purgeExpiredSupportJwtIds(t.app.ctx);
    expect(await jwtIdKnown(t.app.ctx.db, jti)).toBe(true);
    await purgeExpiredSupportJwtIds(t.app.ctx, Date.now() + 121_000);
    expect(await jwtIdKnown(t.app.ctx.db, jti)).toBe(false);
  });
});
