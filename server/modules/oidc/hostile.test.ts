import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../common/constants';
import { createUser, login } from '../../test/factories';
import { BASE_URL, createTestApp, type TestApp } from '../../test/harness';
import { oidcEnv, startInteraction } from '../../test/oidc';

/**
 * "Never a 500" for the /oidc prefix (server/robustness.test.ts covers /api from the API document,
 * which /oidc is not part of): hostile parameters, forms, cookies and identifiers sent to the
 * provider's endpoints and to the portal's interaction routes are refused, never crash. Values reach
 * the database (the adapter looks models up by them), so both passes run this file.
 */
let t: TestApp;
let app: FastifyInstance;
let cookie: string;

const LONG = 'x'.repeat(20 * 1024);
const HOSTILE: Record<string, string> = {
  empty: '',
  long: LONG,
  loneSurrogate: 'a\ud800b',
  control: '\u0001\u0007\b\t\n\r\u001b[31m\u007f',
  nul: 'a\u0000b',
  sql: "' OR '1'='1'; DROP TABLE users; --",
  wildcards: '%_\\%',
  html: '<script>alert(1)</script>',
  path: '../../etc/passwd',
  proto: '__proto__',
};

/** Percent-encoded; a lone surrogate, which has no UTF-8 form, as the bytes a client could still send. */
function encoded(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return 'a%ED%A0%80b';
  }
}

beforeAll(async () => {
  t = await createTestApp(oidcEnv());
  app = t.app;
  const user = await createUser(app.ctx.db, { type: 'admin' });
  cookie = await login(app, user.email);
});
afterAll(async () => t?.close());

async function problemsOf(calls: [string, InjectOptions][]): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, options] of calls) {
    const response = await app.inject({
      ...options,
      headers: { host: 'portal.test', origin: BASE_URL, ...options.headers },
    });
    if (response.statusCode >= 500) problems.push(`${name}: ${response.statusCode} ${response.body.slice(0, 200)}`);
  }
  return problems;
}

const form = (fields: Record<string, string>) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe('never a 500 under /oidc', () => {
  it('refuses hostile authorization, logout and userinfo parameters', async () => {
    const calls: [string, InjectOptions][] = [];
    for (const [name, value] of Object.entries(HOSTILE)) {
      const v = encoded(value);
      for (const param of [
        'client_id',
        'redirect_uri',
        'scope',
        'state',
        'code_challenge',
        'response_type',
        'ui_locales',
      ]) {
        const query = `client_id=console&response_type=code&redirect_uri=http%3A%2F%2Fconsole.test%2Fcallback&scope=openid&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&${param}=${v}`;
        calls.push([`auth ${param} ${name}`, { method: 'GET', url: `/oidc/auth?${query}` }]);
      }
      calls.push([`auth/uid ${name}`, { method: 'GET', url: `/oidc/auth/${v}` }]);
      calls.push([
        `end ${name}`,
        { method: 'GET', url: `/oidc/session/end?id_token_hint=${v}&post_logout_redirect_uri=${v}` },
      ]);
      calls.push([`userinfo ${name}`, { method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${v}` } }]);
      // (`/oidc/` itself is no provider path: the pages answer it, as any other unknown address)
      if (value) calls.push([`unknown path ${name}`, { method: 'GET', url: `/oidc/${v}` }]);
    }
    expect(await problemsOf(calls)).toEqual([]);
  });

  it('refuses hostile forms and bodies at the token, revocation and logout endpoints', async () => {
    const calls: [string, InjectOptions][] = [];
    for (const [name, value] of Object.entries(HOSTILE)) {
      const forms: Record<string, string>[] = [
        {
          grant_type: 'authorization_code',
          code: value,
          client_id: 'console',
          redirect_uri: 'http://console.test/callback',
          code_verifier: value,
        },
        { grant_type: 'refresh_token', refresh_token: value, client_id: 'console' },
        { grant_type: value, client_id: value },
      ];
      for (const fields of forms) {
        calls.push([
          `token ${fields.grant_type.slice(0, 20)} ${name}`,
          { method: 'POST', url: '/oidc/token', ...form(fields) },
        ]);
      }
      calls.push([
        `revocation ${name}`,
        { method: 'POST', url: '/oidc/token/revocation', ...form({ client_id: 'console', token: value }) },
      ]);
      calls.push([
        `confirm ${name}`,
        { method: 'POST', url: '/oidc/session/end/confirm', ...form({ xsrf: value, logout: value }) },
      ]);
    }
    const basic = `Basic ${Buffer.from('academy:wrong').toString('base64')}`;
    calls.push([
      'token, field twice',
      { method: 'POST', url: '/oidc/token', ...form({}), payload: 'grant_type=a&grant_type=b' },
    ]);
    calls.push([
      'token, JSON',
      {
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/json' },
        payload: '{"grant_type":',
      },
    ]);
    calls.push([
      'token, text',
      { method: 'POST', url: '/oidc/token', headers: { 'content-type': 'text/plain' }, payload: 'x' },
    ]);
    calls.push(['token, no type', { method: 'POST', url: '/oidc/token', payload: 'grant_type=x' }]);
    calls.push([
      'token, large',
      { method: 'POST', url: '/oidc/token', ...form({ grant_type: 'x'.repeat(200 * 1024) }) },
    ]);
    calls.push([
      'token, wrong secret',
      {
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        payload: 'grant_type=refresh_token&refresh_token=x',
      },
    ]);
    expect(await problemsOf(calls)).toEqual([]);
  });

  it('refuses hostile cookies and interaction identifiers', async () => {
    const live = await startInteraction(app, cookie, 'consent');
    const calls: [string, InjectOptions][] = [];
    for (const [name, value] of Object.entries(HOSTILE)) {
      const v = encoded(value);
      const cookies = `_session=${v}; _session.sig=${v}; _interaction=${v}; _interaction.sig=${v}; ${SESSION_COOKIE}=${v}`;
      calls.push([
        `auth cookies ${name}`,
        {
          method: 'GET',
          url: '/oidc/auth?client_id=academy&response_type=code&scope=openid&redirect_uri=http%3A%2F%2Facademy.test%2Fcallback',
          headers: { cookie: cookies },
        },
      ]);
      calls.push([
        `interaction cookies ${name}`,
        { method: 'GET', url: `/oidc/interaction/${live.uid}`, headers: { cookie: cookies } },
      ]);
      calls.push([
        `interaction uid ${name}`,
        { method: 'GET', url: `/oidc/interaction/${v}`, headers: { cookie: live.cookie } },
      ]);
      for (const step of ['details', 'confirm', 'abort']) {
        calls.push([
          `${step} uid ${name}`,
          {
            method: step === 'details' ? 'GET' : 'POST',
            url: `/oidc/interaction/${v}/${step}`,
            headers: { cookie: live.cookie },
          },
        ]);
      }
    }
    expect(await problemsOf(calls)).toEqual([]);
    // the interaction is still good for its own user afterwards
    const details = await app.inject({
      url: `/oidc/interaction/${live.uid}/details`,
      headers: { host: 'portal.test', cookie: live.cookie },
    });
    expect(details.statusCode).toBe(200);
  });
});
