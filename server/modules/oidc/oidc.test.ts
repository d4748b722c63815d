import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../common/constants';
import { addMembership, createCustomer, createUser, TEST_PASSWORD } from '../../test/factories';
import { BASE_URL, createTestApp, type TestApp } from '../../test/harness';
import { Browser, discover, oidcEnv } from '../../test/oidc';

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

async function signedInUser() {
  const customer = await createCustomer(app.ctx.db, { name: 'Oidc Customer' });
  const user = await createUser(app.ctx.db, { type: 'client', fullName: 'Olive Idc', preferredLocale: 'fr' });
  await addMembership(app.ctx.db, user.id, customer.id, 'businessOwner');
  return { user, customer };
}

/** The browser signs in on the portal's login API, as the login page does, then returns to the interaction. */
async function signIn(browser: Browser, email: string) {
  const response = await browser.request('POST', '/api/auth/login', {
    json: { email, password: TEST_PASSWORD },
    accept: 'application/json',
  });
  expect(response.statusCode).toBe(200);
  expect(browser.has(SESSION_COOKIE)).toBe(true);
}

async function authorize(config: client.Configuration, redirectUri: string, scope: string) {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, verifier, state, nonce };
}

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
