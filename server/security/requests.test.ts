import crypto from 'node:crypto';
import net from 'node:net';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BOOT_SCRIPT } from '../../common/boot-loader';
import { loadConfig } from '../config';
import { describeError } from '../plugins/errors';
import { FAKE_ASSET, fakeClientBuild } from '../test/client-build';
import { createUser, login, signedIn } from '../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../test/harness';

/**
 * Cross-site requests, access before input, HEAD/OPTIONS, security headers, input the database
 * cannot store and client addresses behind a proxy: one test per property of docs/security.md.
 */

let t: TestApp;
const client = fakeClientBuild();

beforeAll(async () => {
  t = await createTestApp({
    STATIC_DIR: client.dir,
    RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '0',
  });
});
afterAll(async () => {
  await t?.close();
  client.remove();
});

const me = (cookie: string | null) => request(t.app, cookie, { method: 'GET', url: '/api/auth/me' });

describe('cross-site requests', () => {
  let cookie: string;
  let userId: number;
  beforeAll(async () => {
    const user = await createUser(t.app.ctx.db);
    userId = user.id;
    cookie = await login(t.app, user.email);
  });

  const patchMe = (headers: Record<string, string | undefined>) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: { cookie, ...headers } as Record<string, string>,
      payload: { fullName: 'Changed By Request' },
    });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['an opaque origin (sandboxed frame, cross-origin redirect)', { origin: 'null' }],
    ['a sibling subdomain', { origin: 'http://sub.portal.test', 'sec-fetch-site': 'same-site' }],
    ['a cross-site fetch without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['our origin but a cross-site fetch', { origin: BASE_URL, 'sec-fetch-site': 'cross-site' }],
    ['our host over another scheme', { origin: 'https://portal.test' }],
  ])('refuses a state-changing request from %s', async (_label, headers) => {
    const response = await patchMe(headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: { code: 'cross_origin', message: 'Cross-origin requests are not allowed' },
    });
  });

  it('accepts our own origin, and a request with neither Origin nor Sec-Fetch-Site (a non-browser client)', async () => {
    expect((await patchMe({ origin: BASE_URL, 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    // Every browser sends Origin with a PATCH, so a request without it, cookie or not, is a script
    // using its own session (docs/decisions/002-sessions-and-access.md).
    expect((await patchMe({})).statusCode).toBe(200);
    const row = await t.app.ctx.db.selectFrom('users').select('fullName').where('id', '=', userId).executeTakeFirst();
    expect(row?.fullName).toBe('Changed By Request');
  });

  it('refuses to sign out from another site (the session stays)', async () => {
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(out.statusCode).toBe(403);
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('parses JSON bodies only: a text/plain or form body, which a page may send without a preflight, is 415', async () => {
    for (const [type, payload] of [
      ['text/plain', '{"fullName":"Via Text"}'],
      ['application/x-www-form-urlencoded', 'fullName=Via+Form'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nX\r\n--x--'],
    ]) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: '/api/auth/me',
        headers: { cookie, 'content-type': type },
        payload,
      });
      expect(response.statusCode, type).toBe(415);
      expect(response.json().error).toEqual({
        code: 'unsupported_media_type',
        message: 'Unsupported Content-Type: send JSON as application/json',
      });
    }
  });
});

describe('access rules come before the input', () => {
  it('a caller without the right gets 401/403 whatever they send, and learns nothing of the input rules', async () => {
    const client = await signedIn(t.app, 'client');
    const json = { 'content-type': 'application/json' };
    for (const [cookie, status] of [
      [null, 401],
      [client.cookie, 403],
    ] as const) {
      for (const options of [
        { method: 'GET', url: '/api/users/abc' },
        { method: 'GET', url: '/api/users?pageLength=1e9' },
        { method: 'POST', url: '/api/users', headers: json, payload: '{' },
        { method: 'POST', url: '/api/users', headers: { 'content-type': 'text/plain' }, payload: 'x' },
        { method: 'PATCH', url: '/api/users/1', payload: { type: 'admin', fullname: 'a\u0000b' } },
      ] as (InjectOptions & { url: string })[]) {
        const response = await request(t.app, cookie, options);
        expect(response.statusCode, `${options.method} ${options.url}`).toBe(status);
        expect(response.json().error.details).toBeUndefined();
      }
    }
  });
});

describe('HEAD and OPTIONS', () => {
  it('HEAD runs the GET route with its access rule and no body', async () => {
    const admin = await signedIn(t.app, 'admin');
    const client = await signedIn(t.app, 'client');
    const head = (cookie: string | null) => request(t.app, cookie, { method: 'HEAD', url: '/api/users' });
    expect((await head(null)).statusCode).toBe(401);
    expect((await head(client.cookie)).statusCode).toBe(403);
    const allowed = await head(admin.cookie);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toBe('');
    expect(allowed.headers['content-type']).toContain('application/json');
  });

  it('HEAD of a page path answers like its GET (the application page), not a JSON 404', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: '/en/users' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toContain('text/html');
    expect(head.body).toBe('');
    expect((await t.app.inject({ method: 'HEAD', url: '/assets/gone-000.js' })).statusCode).toBe(404);
  });

  it('OPTIONS gets no CORS grant: the API is same-origin only', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/auth/me',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PATCH' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('security headers on every kind of answer', () => {
  // Scripts of the portal's own, and the HTML pages' inline loader by its hash alone.
  const SCRIPTS = `script-src 'self' 'sha256-${crypto.createHash('sha256').update(BOOT_SCRIPT).digest('base64')}';`;
  const CSP_CORE = ["default-src 'self'", SCRIPTS, "frame-ancestors 'none'", "object-src 'none'"];
  // A JSON answer loads and runs nothing and may not be framed (decision 093).
  const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

  it.each([
    ['JSON', { url: '/api/health' }, 200],
    ['a validation error', { url: '/api/auth/check-password-reset?passwordResetToken=a%00b' }, 400],
    ['an authentication error', { url: '/api/auth/me' }, 401],
    ['a 400', { url: '/api/auth/check-password-reset' }, 400],
    ['an unknown API path', { url: '/api/no-such-thing' }, 404],
    ['the application page', { url: '/en/customers' }, 200],
    ['the root page', { url: '/' }, 200],
    ['a static asset', { url: FAKE_ASSET }, 200],
    ['a missing asset', { url: '/assets/gone-000.js' }, 404],
    ['a malformed URL (answered before routing)', { url: '/api/users/%zz' }, 400],
    ['an over-long path parameter', { url: `/api/users/${'9'.repeat(500)}` }, 404],
    [
      'a refused cross-origin request',
      { method: 'POST', url: '/api/auth/logout', headers: { origin: 'https://evil.example' } },
      403,
    ],
    [
      'an unsupported body',
      { method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'text/plain' }, payload: 'x' },
      415,
    ],
    [
      'a body over 1 MiB',
      {
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: `"${'x'.repeat(1024 * 1024 + 10)}"`,
      },
      413,
    ],
  ] as [string, InjectOptions & { url: string }, number][])('%s', async (_label, options, status) => {
    const response = await t.app.inject(options);
    expect(response.statusCode).toBe(status);
    const csp = String(response.headers['content-security-policy']);
    const json = String(response.headers['content-type']).startsWith('application/json');
    // every API answer here is JSON, the pages and assets are not
    expect(json).toBe(options.url.startsWith('/api/'));
    if (json) {
      expect(csp).toBe(JSON_CSP);
    } else {
      for (const directive of CSP_CORE) expect(csp).toContain(directive);
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    if (options.url.startsWith('/api/')) expect(response.headers['cache-control']).toBe('no-store');
    if (status >= 400 && options.url.startsWith('/api/')) {
      expect(Object.keys(response.json())).toEqual(['error']);
    }
  });

  it('the API reference has a policy of its own: no inline script, no framing', async () => {
    for (const url of ['/api/docs', '/api/docs/static/index.html']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBeLessThan(400);
      const csp = String(response.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toMatch(/script-src 'self'[^;]*;/);
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
    // a path that merely starts like it is an ordinary 404 with the ordinary policy
    const lookalike = await t.app.inject({ url: '/api/docsx' });
    expect(lookalike.statusCode).toBe(404);
    expect(lookalike.headers['content-security-policy']).toBe(JSON_CSP);
  });

  it('answers a request the HTTP parser refuses with the error body too', async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let data = '';
      socket.on('data', (chunk: Buffer) => {
        data += chunk.toString();
      });
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    const [head, body] = raw.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain(`content-security-policy: ${JSON_CSP}`);
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(JSON.parse(body)).toEqual({ error: { code: 'validation_error', message: 'Malformed HTTP request' } });
  });
});

describe('input the database cannot store', () => {
  it('refuses NUL characters anywhere with a 400 naming the field', async () => {
    const admin = await signedIn(t.app, 'admin');
    const body = await request(t.app, admin.cookie, {
      method: 'POST',
      url: '/api/users',
      payload: { email: 'nul@example.com', fullname: 'Nul\u0000Byte' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().error).toEqual({
      code: 'validation_error',
      message: 'fullname: This value must not contain NUL characters.',
      details: [{ path: 'fullname', message: 'errors.noNul' }],
    });
    const query = await request(t.app, admin.cookie, { method: 'GET', url: '/api/users?filter=a%00b' });
    expect(query.statusCode).toBe(400);
    expect(query.json().error.message).toBe('filter: This value must not contain NUL characters.');
  });

  it('refuses ids beyond the integer columns, and numbers written other than in digits', async () => {
    const admin = await signedIn(t.app, 'admin');
    const digits = 'This value must be a whole number, written in digits.';
    const cases: [string, string, { path: string; message: string; values?: object }][] = [
      [
        '/api/users/2147483648',
        'id: The number must be at most 2147483647.',
        { path: 'id', message: 'errors.tooBig', values: { max: 2147483647 } },
      ],
      [
        '/api/users/99999999999999999999',
        'id: The number must be at most 2147483647.',
        { path: 'id', message: 'errors.tooBig', values: { max: 2147483647 } },
      ],
      [
        '/api/users/0',
        'id: The number must be at least 1.',
        { path: 'id', message: 'errors.tooSmall', values: { min: 1 } },
      ],
      ['/api/users/1e3', `id: ${digits}`, { path: 'id', message: 'errors.wholeNumber' }],
      ['/api/users?pageOffset=0x10', `pageOffset: ${digits}`, { path: 'pageOffset', message: 'errors.wholeNumber' }],
      [
        '/api/users?pageOffset=1&pageOffset=2',
        'pageOffset: This value must be given only once.',
        { path: 'pageOffset', message: 'errors.givenOnce' },
      ],
      ['/api/users?pageLength=1e9', `pageLength: ${digits}`, { path: 'pageLength', message: 'errors.wholeNumber' }],
      [
        '/api/users?pageLength=101',
        'pageLength: The number must be at most 100.',
        { path: 'pageLength', message: 'errors.tooBig', values: { max: 100 } },
      ],
    ];
    for (const [url, message, detail] of cases) {
      const response = await request(t.app, admin.cookie, { method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error, url).toEqual({ code: 'validation_error', message, details: [detail] });
    }
    expect((await request(t.app, admin.cookie, { method: 'GET', url: '/api/users/2147483647' })).statusCode).toBe(404);
  });

  it('answers 400, not 500, should a value still reach PostgreSQL and be refused there', () => {
    const log = { warn: vi.fn(), error: vi.fn() } as unknown as Parameters<typeof describeError>[1];
    const refused = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
      severity: 'ERROR',
    });
    expect(describeError(refused, log)).toEqual({
      status: 400,
      body: {
        error: {
          code: 'validation_error',
          message: 'A value of the request is out of range or contains characters not allowed',
        },
      },
    });
    expect(log.warn).toHaveBeenCalledOnce();
    const other = Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' });
    expect(describeError(other, log).status).toBe(500);
  });
});

describe('client addresses behind a proxy (rate limits and the captcha count)', () => {
  const signInFrom = (app: TestApp, socket: string, forwardedFor?: string) =>
    request(app.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: socket,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      // a new address each time, so the per-e-mail captcha count stays out of the way
      payload: { email: `nobody-${crypto.randomUUID()}@example.com`, password: 'whatever' },
    });

  it('TRUST_PROXY=true means one hop, not "trust every hop"', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).trustProxy).toEqual(['10.0.0.0/8', 'loopback']);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot pick a new address per request', async () => {
    const app = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '2' });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await signInFrom(app, '198.51.100.20', `203.0.113.${i}`)).statusCode);
      expect(codes).toEqual([401, 401, 429]);
    } finally {
      await app.close();
    }
  });

  it('with a hop count, the address the proxy saw counts, not what the client wrote before it', async () => {
    const app = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '2', TRUST_PROXY: '1' });
    try {
      const proxy = '10.0.0.2';
      // a spoofed leftmost entry changes every time; the proxy appended the real client last
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await signInFrom(app, proxy, `6.6.6.${i}, 203.0.113.7`)).statusCode);
      expect(codes).toEqual([401, 401, 429]);
      // another client behind the same proxy has its own count
      expect((await signInFrom(app, proxy, '203.0.113.8')).statusCode).toBe(401);
      const attempts = await app.app.ctx.db.selectFrom('loginAttempts').select('ip').distinct().execute();
      expect(attempts.map((a) => a.ip).sort()).toEqual(['203.0.113.7', '203.0.113.8']);
    } finally {
      await app.close();
    }
  });

  it('with proxy addresses, X-Forwarded-For counts only when the request comes from one of them', async () => {
    const app = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '2', TRUST_PROXY: '10.0.0.0/8' });
    try {
      const viaProxy = [];
      for (let i = 0; i < 2; i++) viaProxy.push((await signInFrom(app, '10.1.2.3', `203.0.113.${i}`)).statusCode);
      expect(viaProxy).toEqual([401, 401]);
      // a direct client writing its own X-Forwarded-For is counted on its own address
      const direct = [];
      for (let i = 0; i < 3; i++)
        direct.push((await signInFrom(app, '198.51.100.9', `203.0.113.${10 + i}`)).statusCode);
      expect(direct).toEqual([401, 401, 429]);
    } finally {
      await app.close();
    }
  });
});
