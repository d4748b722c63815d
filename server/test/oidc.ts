import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import * as client from 'openid-client';
import { expect } from 'vitest';
import { SESSION_COOKIE } from '../../common/constants';
import type { DB } from '../db';
import { addMembership, createCustomer, createUser, TEST_PASSWORD } from './factories';
import { BASE_URL } from './harness';

/**
 * OpenID Connect relying parties for tests (docs/oidc.md): openid-client speaking to the portal's
 * provider, and a browser that follows the provider's redirects with its cookies.
 */

const RP_SECRET = 'academy-client-secret-0123456789abcdef';

/** A confidential first-party client (refresh tokens, no consent page) and a public third-party one. */
const TEST_OIDC_CLIENTS = [
  {
    client_id: 'academy',
    client_secret: RP_SECRET,
    client_name: 'Academy',
    redirect_uris: ['http://academy.test/callback'],
    post_logout_redirect_uris: ['http://academy.test/signed-out'],
    first_party: true,
  },
  {
    client_id: 'console',
    client_name: 'Partner console',
    redirect_uris: ['http://console.test/callback'],
    post_logout_redirect_uris: ['http://console.test/signed-out'],
  },
];

export const oidcEnv = () => ({ OIDC_CLIENTS: JSON.stringify(TEST_OIDC_CLIENTS) });

/** The bodies openid-client sends: forms, JSON text, bytes. */
function payloadOf(body: unknown): string | Buffer {
  if (typeof body === 'string' || body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return Buffer.from(body as Uint8Array);
  throw new Error('a body this relying party does not send');
}

/** fetch for openid-client, answered by the app in process (the issuer's host is not a real one). */
function injectFetch(app: () => FastifyInstance) {
  return async (input: string, init?: { method?: string; headers?: HeadersInit; body?: unknown }) => {
    const url = new URL(input);
    const headers = { ...Object.fromEntries(new Headers(init?.headers).entries()), host: url.host };
    const response = await app().inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers,
      ...(init?.body ? { payload: payloadOf(init.body) } : {}),
    });
    const answer = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(response.statusCode === 204 ? null : response.body, {
      status: response.statusCode,
      headers: answer,
    });
  };
}

export async function discover(app: () => FastifyInstance, clientId: 'academy' | 'console') {
  const auth = clientId === 'academy' ? client.ClientSecretBasic(RP_SECRET) : client.None();
  return client.discovery(new URL(`${BASE_URL}/oidc`), clientId, undefined, auth, {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: injectFetch(app),
  });
}

/** A browser's cookie jar over app.inject: follows nothing by itself, keeps what it is given. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly app: () => FastifyInstance) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  setCookie(header: string) {
    const [name, value] = header.split('=', 2);
    this.cookies.set(name, value);
  }

  has(name: string) {
    return this.cookies.has(name);
  }

  private keep(response: LightMyRequestResponse) {
    for (const cookie of response.cookies) {
      const expired =
        cookie.value === '' || cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  async request(
    method: 'GET' | 'POST',
    target: string,
    options: { form?: Record<string, string>; json?: object; accept?: string } = {},
  ) {
    const url = new URL(target, BASE_URL);
    if (url.origin !== BASE_URL) throw new Error(`the browser left the portal for ${url.href}`);
    const headers: Record<string, string> = {
      host: url.host,
      cookie: this.cookieHeader,
      accept: options.accept ?? 'text/html',
    };
    if (method === 'POST') headers.origin = BASE_URL;
    let payload: string | undefined;
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(options.form).toString();
    } else if (options.json) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(options.json);
    }
    const response = await this.app().inject({ method, url: url.pathname + url.search, headers, payload });
    this.keep(response);
    return response;
  }

  /**
   * Follows the provider's redirects (under /oidc); returns the first answer that is not one, or the
   * first address elsewhere (a page of the portal, a relying party) without opening it.
   */
  async follow(target: string): Promise<{ location: string; response: LightMyRequestResponse | null }> {
    let location = new URL(target, BASE_URL).href;
    for (let hop = 0; hop < 10; hop++) {
      const url = new URL(location);
      if (url.origin !== BASE_URL || !url.pathname.startsWith('/oidc/')) return { location, response: null };
      const response = await this.request('GET', location);
      if (response.statusCode < 300 || response.statusCode >= 400) return { location, response };
      location = new URL(String(response.headers.location), location).href;
    }
    throw new Error('too many redirects');
  }
}

/** A fresh client user, project manager of a fresh customer: the one who signs in through the provider. */
export async function oidcUser(db: DB) {
  const customer = await createCustomer(db, { name: 'Oidc Customer' });
  const user = await createUser(db, { type: 'client', fullName: 'Olive Idc', preferredLocale: 'fr' });
  await addMembership(db, user.id, customer.id, 'businessOwner');
  return { user, customer };
}

/** The browser signs in on the portal's login API, as the login page does, then returns to the interaction. */
export async function signIn(browser: Browser, email: string) {
  const response = await browser.request('POST', '/api/auth/login', {
    json: { email, password: TEST_PASSWORD },
    accept: 'application/json',
  });
  expect(response.statusCode).toBe(200);
  expect(browser.has(SESSION_COOKIE)).toBe(true);
}

/** The set-up of most cases: a fresh user signed in on the portal in a browser, and the client's configuration. */
export async function signedInAt(app: () => FastifyInstance, clientId: 'academy' | 'console') {
  const { user } = await oidcUser(app().ctx.db);
  const config = await discover(app, clientId);
  const browser = new Browser(app);
  await signIn(browser, user.email);
  return { user, config, browser };
}

/** An authorization request with PKCE, a state and a nonce, and what its code exchange expects. */
export async function authorize(config: client.Configuration, redirectUri: string, scope: string) {
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

/** How many provider rows are stored. */
export async function countModels(db: DB): Promise<number> {
  const row = await db
    .selectFrom('oidcModels')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A live interaction of the public third-party client, for the routes that take one: at its first
 * prompt (`login`), or, for a signed-in portal user, at the consent prompt. The cookie header holds
 * the portal's session cookie given and the provider's interaction cookies.
 */
export async function startInteraction(
  app: FastifyInstance,
  portalCookie: string | null,
  step: 'login' | 'consent',
): Promise<{ uid: string; cookie: string }> {
  const browser = new Browser(() => app);
  if (portalCookie) browser.setCookie(portalCookie);
  const query = new URLSearchParams({
    client_id: 'console',
    response_type: 'code',
    redirect_uri: 'http://console.test/callback',
    scope: 'openid email',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    state: 'matrix',
  });
  const authorize = `/oidc/auth?${query.toString()}`;
  if (step === 'login') {
    const first = await browser.request('GET', authorize);
    const uid = /\/oidc\/interaction\/([^/?]+)/.exec(String(first.headers.location))?.[1];
    if (!uid) throw new Error(`no interaction: ${first.statusCode} ${String(first.headers.location)}`);
    return { uid, cookie: browser.cookieHeader };
  }
  const { location } = await browser.follow(authorize);
  const uid = new URL(location).searchParams.get('interaction');
  if (!uid) throw new Error(`no consent prompt: ${location}`);
  return { uid, cookie: browser.cookieHeader };
}
