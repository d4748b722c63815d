import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { access } from '../plugins/access';
import { BASE_URL, createTestApp, type TestApp } from '../test/harness';

/**
 * The two declared exceptions to "JSON only, same origin" (docs/decisions/010), on routes that exist
 * only in this test: a payment provider's webhook and OpenID Connect form posts.
 */
const SECRET = 'webhook-test-secret';
const sign = (body: Buffer) => crypto.createHmac('sha256', SECRET).update(body).digest('hex');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    {},
    {},
    {
      testRoutes: async (api) => {
        api.post('/test/webhook', { config: { access: access.public, webhook: true } }, async (request, reply) => {
          const body = request.body as Buffer;
          if (!Buffer.isBuffer(body) || request.headers['x-signature'] !== sign(body)) {
            return reply.status(400).send({ error: { code: 'validation_error', message: 'Bad signature' } });
          }
          return { bytes: body.length };
        });
        api.post(
          '/test/form',
          { config: { access: access.public, formPost: { crossSite: false } } },
          async (request) => ({
            fields: request.body,
          }),
        );
        api.post(
          '/test/oidc-callback',
          { config: { access: access.public, formPost: { crossSite: true } } },
          async (request) => ({
            fields: request.body,
          }),
        );
      },
    },
  );
});
afterAll(() => t.close());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const CROSS_SITE = { origin: 'https://idp.example', 'sec-fetch-site': 'cross-site' };

describe('webhooks', () => {
  it('get the exact bytes that were signed, whatever their type, from another origin', async () => {
    for (const [type, text] of [
      ['application/json', '{ "id":"evt_1",  "amount": 10.50 }\n'],
      ['application/x-www-form-urlencoded', 'id=tr_1&status=paid'],
      ['application/json; charset=utf-8', '{"note":"caf\u00e9 \u0000"}'],
    ]) {
      const payload = Buffer.from(text);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/test/webhook',
        headers: { 'content-type': type, 'x-signature': sign(payload), ...CROSS_SITE },
        payload,
      });
      expect(response.statusCode, type).toBe(200);
      expect(response.json(), type).toEqual({ bytes: payload.length });
    }
  });

  it('leave the verdict to the route: a wrong signature is refused by it', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/webhook',
      headers: { 'content-type': 'application/json', 'x-signature': 'forged', ...CROSS_SITE },
      payload: '{}',
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('form posts', () => {
  it('are parsed into fields on a route that declares them, from the portal itself', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/form',
      headers: { ...FORM, origin: BASE_URL },
      payload: 'code=abc&state=x%20y',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ fields: { code: 'abc', state: 'x y' } });
  });

  it('from another site, only where declared, and then only as a form', async () => {
    const form = { method: 'POST' as const, headers: { ...FORM, ...CROSS_SITE }, payload: 'code=abc&state=s' };
    expect((await t.app.inject({ ...form, url: '/api/test/form' })).statusCode).toBe(403);
    const callback = await t.app.inject({ ...form, url: '/api/test/oidc-callback' });
    expect(callback.statusCode).toBe(200);
    expect(callback.json()).toEqual({ fields: { code: 'abc', state: 's' } });
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/test/oidc-callback',
      headers: { 'content-type': 'application/json', ...CROSS_SITE },
      payload: '{"code":"abc"}',
    });
    expect(json.statusCode).toBe(403);
    expect(json.json().error.code).toBe('cross_origin');
  });

  it('refuse a field given twice rather than pick one', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/test/oidc-callback',
      headers: FORM,
      payload: 'state=a&state=b',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'validation_error',
      message: 'state: This value must be given only once.',
      details: [{ path: 'state', message: 'errors.givenOnce' }],
    });
  });

  it('are refused (415) by every route that does not declare them, after its access rule', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { ...FORM, origin: BASE_URL },
      payload: 'email=a%40example.com&password=x',
    });
    expect(login.statusCode).toBe(415);
    expect(login.json().error.code).toBe('unsupported_media_type');
    const users = await t.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: { ...FORM, origin: BASE_URL },
      payload: 'a=b',
    });
    expect(users.statusCode).toBe(401);
  });

  it('JSON routes keep refusing a JSON body from another site, and text/plain from anywhere', async () => {
    const json = { 'content-type': 'application/json' };
    const cross = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { ...json, ...CROSS_SITE },
      payload: '{}',
    });
    expect(cross.statusCode).toBe(403);
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain', origin: BASE_URL },
      payload: '{}',
    });
    expect(text.statusCode).toBe(415);
  });
});
