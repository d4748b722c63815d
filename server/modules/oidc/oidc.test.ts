import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../common/constants';
import { createUser, login, TEST_PASSWORD } from '../../test/factories';
import { BASE_URL, createTestApp, type TestApp } from '../../test/harness';
import { authorize, Browser, discover, oidcEnv, oidcUser, signedInAt, signIn } from '../../test/oidc';
import { enrolTotp } from '../../test/two-factor';
import { PENDING_SIGN_IN_COOKIE } from '../../../common/api/two-factor';
import { codeAt } from '../two-factor/totp';

/**
 * The provider as relying parties see it (docs/oidc.md), with openid-client: discovery, the code
 * flow through the portal's sign-in, the ID token against the JWKS, refresh, userinfo and the
 * `portal` scope, RP-initiated logout; and what it refuses.
 */
let t: TestApp;
let app: FastifyInstance;
const current = () => app;

beforeAll(async () => {
  t = await createTestApp(oidcEnv());
  app = t.app;
});
afterAll(async () => t?.close());

const signedInUser = () => oidcUser(app.ctx.db);

describe('the code flow of a confidential first-party client', () => {
  it('signs in through the portal, validates the ID token, refreshes, reads userinfo and logs out', async () => {
    const { user, customer } = await signedInUser();
    const config = await discover(current, 'academy');
    expect(config.serverMetadata().issuer).toBe(`${BASE_URL}/oidc`);

    const browser = new Browser(current);
    const request = await authorize(config, 'http://academy.test/callback', 'openid email profile portal');
    const toLogin = await browser.follow(request.url.href);
    expect(toLogin.response).toBeNull();
    const login = new URL(toLogin.location);
    expect(login.pathname).toBe('/en/login');
    const uid = login.searchParams.get('interaction');
    expect(uid).toMatch(/^[A-Za-z0-9_-]+$/);

    await signIn(browser, user.email);
    const back = await browser.follow(`/oidc/interaction/${uid}`);
    const callback = new URL(back.location);
    expect(callback.origin + callback.pathname).toBe('http://academy.test/callback');

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const claims = tokens.claims();
    expect(claims?.sub).toBe(String(user.id));

    const jwks = (await app.inject({ url: '/oidc/jwks' })).json();
    const verified = await jwtVerify(tokens.id_token!, createLocalJWKSet(jwks), {
      issuer: `${BASE_URL}/oidc`,
      audience: 'academy',
    });
    expect(verified.payload.sub).toBe(String(user.id));
    expect(verified.protectedHeader.alg).toBe('RS256');

    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    // rotated: the answer carries a new refresh token, and the used one no longer works
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);

    const info = await client.fetchUserInfo(config, refreshed.access_token, String(user.id));
    expect(info).toMatchObject({ email: user.email, email_verified: true, name: 'Olive Idc', locale: 'fr' });
    expect(info.portal).toMatchObject({
      type: 'client',
      allCustomers: false,
      customers: [{ id: customer.id, name: 'Oidc Customer', role: 'businessOwner' }],
    });

    const end = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: 'http://academy.test/signed-out',
      state: 'bye',
    });
    const question = await browser.request('GET', end.pathname + end.search);
    expect(question.statusCode).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(question.body)?.[1];
    expect(xsrf).toBeTruthy();
    const confirmed = await browser.request('POST', '/oidc/session/end/confirm', {
      form: { xsrf: xsrf!, logout: 'yes' },
    });
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe('http://academy.test/signed-out?state=bye');
    // the portal's session ended with the provider's
    const me = await browser.request('GET', '/api/auth/me', { accept: 'application/json' });
    expect(me.statusCode).toBe(401);
  });
});

describe('an account with a second factor', () => {
  it('completes no interaction after the password alone: only the second factor sends it back', async () => {
    const { user } = await signedInUser();
    const { secret } = await enrolTotp(app, await login(app, user.email));
    const config = await discover(current, 'academy');
    const browser = new Browser(current);
    const request = await authorize(config, 'http://academy.test/callback', 'openid email');
    const toLogin = new URL((await browser.follow(request.url.href)).location);
    expect(toLogin.pathname).toBe('/en/login');
    const uid = toLogin.searchParams.get('interaction')!;

    const password = await browser.request('POST', '/api/auth/login', {
      json: { email: user.email, password: TEST_PASSWORD },
      accept: 'application/json',
    });
    expect(password.statusCode).toBe(200);
    expect(password.json()).toEqual({ secondFactor: { methods: ['totp', 'recoveryCode'] } });
    expect(browser.has(PENDING_SIGN_IN_COOKIE)).toBe(true);
    expect(browser.has(SESSION_COOKIE)).toBe(false);

    // a pending sign-in is not a session: the interaction sends back to the login page, no code
    const pending = await browser.follow(`/oidc/interaction/${uid}`);
    const again = new URL(pending.location);
    expect(again.origin).toBe(BASE_URL);
    expect(again.pathname).toBe('/en/login');
    expect(again.searchParams.get('interaction')).toBe(uid);
    // nor does the consent API answer it
    const details = await browser.request('GET', `/oidc/interaction/${uid}/details`, { accept: 'application/json' });
    expect(details.statusCode).toBe(401);

    const wrong = await browser.request('POST', '/api/auth/second-factor', {
      json: { method: 'totp', code: '000000' },
      accept: 'application/json',
    });
    expect(wrong.statusCode).toBe(400);
    expect(new URL((await browser.follow(`/oidc/interaction/${uid}`)).location).pathname).toBe('/en/login');

    const second = await browser.request('POST', '/api/auth/second-factor', {
      json: { method: 'totp', code: codeAt(secret, Date.now() + 30_000) },
      accept: 'application/json',
    });
    expect(second.statusCode).toBe(200);
    expect(browser.has(SESSION_COOKIE)).toBe(true);
    const callback = new URL((await browser.follow(`/oidc/interaction/${uid}`)).location);
    expect(callback.origin + callback.pathname).toBe('http://academy.test/callback');
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    expect(tokens.claims()?.sub).toBe(String(user.id));
  });
});

describe('a public third-party client', () => {
  it('is asked for consent on the portal, and the code needs its PKCE verifier', async () => {
    const { config, browser } = await signedInAt(current, 'console');
    const request = await authorize(config, 'http://console.test/callback', 'openid email portal');
    const toConsent = new URL((await browser.follow(request.url.href)).location);
    expect(toConsent.pathname).toBe('/fr/consent');
    const uid = toConsent.searchParams.get('interaction')!;

    const details = await browser.request('GET', `/oidc/interaction/${uid}/details`, { accept: 'application/json' });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toEqual({
      uid,
      clientId: 'console',
      clientName: 'Partner console',
      scopes: ['openid', 'email', 'portal'],
    });
    // another signed-in user does not see, nor answer, this user's interaction
    const other = new Browser(current);
    other.setCookie(browser.cookieHeader.split('; ').find((c) => c.startsWith('_interaction='))!);
    const stranger = await createUser(app.ctx.db, { type: 'admin' });
    await signIn(other, stranger.email);
    expect(
      (await other.request('POST', `/oidc/interaction/${uid}/confirm`, { accept: 'application/json' })).statusCode,
    ).toBe(404);

    const confirmed = await browser.request('POST', `/oidc/interaction/${uid}/confirm`, { accept: 'application/json' });
    expect(confirmed.statusCode).toBe(200);
    const callback = new URL((await browser.follow(confirmed.json().location)).location);
    expect(callback.origin).toBe('http://console.test');

    // without the verifier the code is refused; with it, once
    await expect(
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
        expectedState: request.state,
        expectedNonce: request.nonce,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a request without PKCE, and one the user declines', async () => {
    const { config, browser } = await signedInAt(current, 'console');
    const noPkce = client.buildAuthorizationUrl(config, {
      redirect_uri: 'http://console.test/callback',
      scope: 'openid',
      state: 's1',
    });
    const refused = new URL((await browser.follow(noPkce.href)).location);
    expect(refused.origin).toBe('http://console.test');
    expect(refused.searchParams.get('error')).toBe('invalid_request');

    const request = await authorize(config, 'http://console.test/callback', 'openid');
    const uid = new URL((await browser.follow(request.url.href)).location).searchParams.get('interaction')!;
    const declined = await browser.request('POST', `/oidc/interaction/${uid}/abort`, { accept: 'application/json' });
    const back = new URL((await browser.follow(declined.json().location)).location);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(request.state);
  });
});

describe('what the provider refuses', () => {
  it('refuses an undeclared redirect URI on its own error page, never redirecting there', async () => {
    const config = await discover(current, 'academy');
    const request = await authorize(config, 'http://evil.test/callback', 'openid');
    const browser = new Browser(current);
    const answer = await browser.request('GET', request.url.pathname + request.url.search, { accept: 'text/html' });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.body).toContain('redirect_uri');
    expect(answer.body).toContain('<html lang="en">');
    expect(String(answer.headers['content-security-policy'])).toContain("form-action 'self' http://academy.test");
  });

  it('refuses a replayed code, a forged state and a forged interaction', async () => {
    const { user, config, browser } = await signedInAt(current, 'academy');
    const request = await authorize(config, 'http://academy.test/callback', 'openid');
    const callback = new URL((await browser.follow(request.url.href)).location);
    const checks = { pkceCodeVerifier: request.verifier, expectedState: request.state, expectedNonce: request.nonce };
    await expect(
      client.authorizationCodeGrant(config, callback, { ...checks, expectedState: 'forged' }),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/"state"/) } });
    const tokens = await client.authorizationCodeGrant(config, callback, checks);
    expect(tokens.access_token).toBeTruthy();
    await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // the replay revoked what the code gave
    await expect(client.fetchUserInfo(config, tokens.access_token, String(user.id))).rejects.toThrow();

    const forged = await browser.request('GET', '/oidc/interaction/forgedinteraction0000');
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('interaction_not_found');
    const badXsrf = await browser.request('POST', '/oidc/session/end/confirm', {
      form: { xsrf: 'forged', logout: 'yes' },
    });
    expect(badXsrf.statusCode).toBe(400);
  });
});

describe('the portal logout handshake (spec 4 and 7)', () => {
  it('ends the provider session: the next authorization asks to sign in again', async () => {
    const { config, browser } = await signedInAt(current, 'academy');
    const first = await authorize(config, 'http://academy.test/callback', 'openid');
    expect(new URL((await browser.follow(first.url.href)).location).origin).toBe('http://academy.test');

    const end = await browser.request('GET', '/oidc/session/end', { accept: 'application/json' });
    expect(end.statusCode).toBe(200);
    const { xsrf } = end.json() as { xsrf: string };
    expect((await browser.request('POST', '/api/auth/logout', { accept: 'application/json' })).statusCode).toBeLessThan(
      300,
    );
    const confirm = await browser.request('POST', '/oidc/session/end/confirm', { form: { xsrf, logout: 'yes' } });
    expect(confirm.statusCode, confirm.body.slice(0, 3000)).toBe(303);

    const again = await authorize(config, 'http://academy.test/callback', 'openid');
    expect(new URL((await browser.follow(again.url.href)).location).pathname).toBe('/en/login');
  });
});

describe('a provider session without a portal session', () => {
  it('signs in again once the portal session is gone, even without the handshake', async () => {
    const { user, config, browser } = await signedInAt(current, 'academy');
    const first = await authorize(config, 'http://academy.test/callback', 'openid');
    expect(new URL((await browser.follow(first.url.href)).location).origin).toBe('http://academy.test');
    // every session of the user ends (as after a password reset); the provider's session is still there
    const { endUserSessions } = await import('../sessions/service');
    await endUserSessions(app.ctx.db, user.id);
    expect(browser.has('_session')).toBe(true);
    const again = await authorize(config, 'http://academy.test/callback', 'openid');
    expect(new URL((await browser.follow(again.url.href)).location).pathname).toBe('/en/login');
  });
});

describe('refresh tokens of a confidential client', () => {
  it('are rotated: a used one is refused, and replaying it ends the grant', async () => {
    const { config, browser } = await signedInAt(current, 'academy');
    const request = await authorize(config, 'http://academy.test/callback', 'openid offline_access');
    const callback = new URL((await browser.follow(request.url.href)).location);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const first = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(first.refresh_token).toBeTruthy();
    expect(first.refresh_token).not.toBe(tokens.refresh_token);

    const replay = await client.refreshTokenGrant(config, tokens.refresh_token!).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(client.ResponseBodyError);
    expect((replay as client.ResponseBodyError).error).toBe('invalid_grant');
    // the replay revoked the grant: the token the first refresh gave is refused too
    const after = await client.refreshTokenGrant(config, first.refresh_token!).catch((error: unknown) => error);
    expect((after as client.ResponseBodyError).error).toBe('invalid_grant');
  });
});

describe('the provider state', () => {
  it('survives a rebuild of the app on the same database, and expired rows are purged', async () => {
    const { config, browser } = await signedInAt(current, 'academy');
    const request = await authorize(config, 'http://academy.test/callback', 'openid offline_access');
    const callback = new URL((await browser.follow(request.url.href)).location);

    const { buildApp } = await import('../../app');
    const rebuilt = await buildApp(t.config, { database: t.database, startBackgroundWork: false });
    await rebuilt.ready();
    const before = app;
    app = rebuilt;
    try {
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
      });
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).toBeTruthy();
      // the provider's session too: signed in without the login page
      const again = await authorize(config, 'http://academy.test/callback', 'openid');
      expect(new URL((await browser.follow(again.url.href)).location).origin).toBe('http://academy.test');
    } finally {
      app = before;
      await rebuilt.close();
    }

    const { purgeExpiredOidcState } = await import('./adapter');
    const { countModels } = await import('../../test/oidc');
    const stored = await countModels(app.ctx.db);
    expect(stored).toBeGreaterThan(0);
    expect(await purgeExpiredOidcState(app.ctx.db, Date.now() + 400 * 24 * 60 * 60 * 1000)).toBeGreaterThan(0);
    expect(await countModels(app.ctx.db)).toBeLessThan(stored);
  });
});

describe('the request log', () => {
  it('shows no interaction uid, on the provider, the interaction or the login page', async () => {
    const { buildApp } = await import('../../app');
    const lines: string[] = [];
    const logging = await buildApp(
      { ...t.config, logLevel: 'info' },
      { database: t.database, startBackgroundWork: false, logStream: { write: (line) => lines.push(line) } },
    );
    await logging.ready();
    const before = app;
    app = logging;
    try {
      const { user } = await signedInUser();
      const config = await discover(current, 'academy');
      const browser = new Browser(current);
      const request = await authorize(config, 'http://academy.test/callback', 'openid');
      const login = new URL((await browser.follow(request.url.href)).location);
      const uid = login.searchParams.get('interaction')!;
      expect(uid).toBeTruthy();
      await browser.request('GET', login.pathname + login.search, { accept: 'text/html' });
      await signIn(browser, user.email);
      // the interaction, then the provider's resume address /oidc/auth/<uid>, then the relying party
      const back = await browser.follow(`/oidc/interaction/${uid}`);
      expect(new URL(back.location).origin).toBe('http://academy.test');

      const logged = lines.join('');
      expect(logged).toContain('/oidc/interaction/[redacted]');
      expect(logged).toContain('/oidc/auth/[redacted]');
      expect(logged).toContain('interaction=[redacted]');
      expect(logged).not.toContain(uid);
    } finally {
      app = before;
      await logging.close();
    }
  });

  it('keeps codes, tokens and verifiers of OpenID Connect addresses out of it', async () => {
    const { redactUrl } = await import('../../log');
    const logged = redactUrl(
      '/oidc/session/end?id_token_hint=eyJ.secret.sig&state=s&post_logout_redirect_uri=x' +
        '&code=the-code&code_verifier=the-verifier&refresh_token=the-refresh',
    );
    for (const secret of ['eyJ.secret.sig', 'the-code', 'the-verifier', 'the-refresh'])
      expect(logged).not.toContain(secret);
    expect(logged).toContain('state=s');
  });
});
