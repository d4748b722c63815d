import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db';
import { FAKE_ASSET, fakeClientBuild } from '../test/client-build';
import { createTestApp, type TestApp } from '../test/harness';

/** Cross-cutting behaviour: configuration, security headers, the SPA, OpenAPI, declared access. */

describe('configuration', () => {
  it('names the variable and the problem when a value is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ BASE_URL: 'not a url' })).toThrow(/BASE_URL/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL: must start with smtp/);
    expect(() => loadConfig({ RECAPTCHA_SITE_KEY: 'k' })).toThrow(/must be set together/);
  });

  it('requires a session secret and SMTP in production, and never the local mailbox there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' })).toThrow(
      /SESSION_SECRET: is required/,
    );
    const secret = 'x'.repeat(32);
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret })).toThrow(/SMTP_URL: is required/);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: secret, SMTP_URL: 'smtp://mail:25', DEV_MAILBOX: 'true' }),
    ).toThrow(/DEV_MAILBOX/);
    const config = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: secret,
      SMTP_URL: 'smtp://mail:25',
      PAYMENT_TEST_CHECKOUT: 'true',
    });
    expect(config.devMailbox).toBe(false);
  });

  it('never loads the demo accounts, whose password is published, in production', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      SMTP_URL: 'smtp://mail:25',
      PAYMENT_TEST_CHECKOUT: 'true',
    };
    expect(loadConfig(production).seedDemoData).toBe(false);
    expect(() => loadConfig({ ...production, SEED_DEMO_DATA: 'true' })).toThrow(
      /SEED_DEMO_DATA: cannot be enabled in production/,
    );
    expect(loadConfig({ ...production, SEED_DEMO_DATA: 'false' }).seedDemoData).toBe(false);
    expect(loadConfig({}).seedDemoData).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).seedDemoData).toBe(true);
  });

  it('runs on embedded defaults: SQLite under ./data, local mailbox, Secure cookies only over HTTPS', () => {
    const config = loadConfig({});
    expect(config.databaseUrl).toBe('sqlite:./data/portal.db');
    expect(config.devMailbox).toBe(true);
    expect(config.secureCookies).toBe(false);
    expect(loadConfig({ BASE_URL: 'https://portal.example.com/' }).secureCookies).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });
});

describe('every API route declares who may call it', () => {
  it('refuses to register an /api route without an access rule', async () => {
    const config = loadConfig({ DATABASE_URL: ':memory:', LOG_LEVEL: 'silent', STATIC_DIR: './does-not-exist' });
    const database = openDatabase(config.databaseUrl);
    const app = await buildApp(config, { database, startBackgroundWork: false });
    try {
      expect(() => app.get('/api/unguarded', async () => 'open')).toThrow(/declares no access rule/);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('HTTP surface', () => {
  let t: TestApp;
  const client = fakeClientBuild();

  beforeAll(async () => {
    t = await createTestApp({ STATIC_DIR: client.dir });
  });
  afterAll(async () => {
    await t.close();
    client.remove();
  });

  it('sets security headers: a CSP without inline script, frame denial, no-sniff; no HSTS over HTTP', async () => {
    const page = await t.app.inject({ url: '/' });
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['strict-transport-security']).toBeUndefined();
  });

  it('gives a JSON answer a policy under which nothing loads or runs, no framing, no sniffing, no caching', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    // the page headers are a document's, which a JSON answer is not
    expect(response.headers['permissions-policy']).toBeUndefined();
  });

  it('answers the health check with the database state', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('serves the client: page paths get index.html (sign-in pages public.html), hashed assets are cached for good', async () => {
    for (const url of ['/', '/en/users', '/fr/reset-password/abc']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<div id="root"');
      expect(page.headers['cache-control']).toBe('no-cache');
      // the sign-in pages have their own light page, every other page path the application
      expect(page.body.includes('data-public'), url).toBe(url.includes('reset-password'));
    }
    const asset = await t.app.inject({ url: FAKE_ASSET });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ url: '/assets/gone-000.js' })).statusCode).toBe(404);
  });

  it('answers unknown API paths with the one error body', async () => {
    const response = await t.app.inject({ url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'No route GET /api/no-such-thing' } });
  });

  it('publishes the OpenAPI document generated from the schemas', async () => {
    const response = await t.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/auth/login', '/api/auth/me', '/api/users', '/api/users/{id}']),
    );
    expect(document.paths['/api/auth/login'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
    // The shared schemas are zod/mini ones (docs/decisions/023): their rules reach the document as well.
    const body = (path: string, method: string) =>
      document.paths[path][method].requestBody.content['application/json'].schema;
    expect(body('/api/auth/login', 'post').properties).toMatchObject({
      email: { type: 'string', minLength: 1, maxLength: 254 },
      password: { type: 'string', minLength: 1, maxLength: 1024 },
      recaptchaResponse: { type: 'string', maxLength: 4096 },
    });
    expect(body('/api/users', 'post')).toMatchObject({
      additionalProperties: false,
      required: ['email', 'fullname'],
      properties: {
        preferredLocale: { enum: ['en', 'fr'], default: 'en' },
        fullname: { minLength: 1, maxLength: 200 },
      },
    });
    expect(body('/api/users/{id}', 'patch')).toMatchObject({ additionalProperties: false });
    expect(body('/api/users/{id}', 'patch').required).toBeUndefined();
    const me = document.paths['/api/auth/me'].get.responses;
    expect(me['200'].content['application/json'].schema.properties.id.type).toBe('integer');
    expect(me['401'].content['application/json'].schema.properties.error.properties.details.description).toMatch(
      /problems tied to a field/,
    );
    expect((await t.app.inject({ url: '/api/docs' })).statusCode).toBeLessThan(400);
  });
});
