import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, TEST_PASSWORD } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { acceptedOrigins } from './security';

describe('acceptedOrigins', () => {
  it('adds the loopback twin in development only, on the same scheme and port', () => {
    expect([...acceptedOrigins({ baseUrl: 'http://localhost:3000', env: 'development' })].sort()).toEqual([
      'http://127.0.0.1:3000',
      'http://localhost:3000',
    ]);
    expect([...acceptedOrigins({ baseUrl: 'http://127.0.0.1:8080', env: 'development' })].sort()).toEqual([
      'http://127.0.0.1:8080',
      'http://localhost:8080',
    ]);
    expect([...acceptedOrigins({ baseUrl: 'http://localhost:3000', env: 'production' })]).toEqual([
      'http://localhost:3000',
    ]);
    expect([...acceptedOrigins({ baseUrl: 'http://localhost:3000', env: 'test' })]).toEqual(['http://localhost:3000']);
    // A named host has no twin.
    expect([...acceptedOrigins({ baseUrl: 'https://portal.example.com', env: 'development' })]).toEqual([
      'https://portal.example.com',
    ]);
  });
});

/** Signing in from a page opened at `origin`, as the browser sends it (same-origin fetch). */
async function signInFrom(t: TestApp, email: string, origin: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin, 'sec-fetch-site': 'same-origin' },
    payload: { email, password: TEST_PASSWORD },
  });
  return response.statusCode;
}

describe.each([
  ['development', true],
  ['production', false],
])('a portal at http://localhost:3000 in %s', (nodeEnv, acceptsTwin) => {
  let t: TestApp;
  let email: string;
  beforeAll(async () => {
    t = await createTestApp({
      NODE_ENV: nodeEnv,
      BASE_URL: 'http://localhost:3000',
      // Production asks for real mail and payments; nothing is sent or paid here.
      SMTP_URL: 'smtp://127.0.0.1:9',
      PAYMENT_TEST_CHECKOUT: 'true',
      RATE_LIMIT_LOGIN_PER_MINUTE: '0',
    });
    email = (await createUser(t.app.ctx.db)).email;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets a page of its own origin sign in', async () => {
    expect(await signInFrom(t, email, 'http://localhost:3000')).toBe(200);
  });

  it(`${acceptsTwin ? 'accepts' : 'refuses'} the same portal opened at 127.0.0.1`, async () => {
    expect(await signInFrom(t, email, 'http://127.0.0.1:3000')).toBe(acceptsTwin ? 200 : 403);
  });

  it('refuses the loopback twin on another port, and any other site', async () => {
    expect(await signInFrom(t, email, 'http://127.0.0.1:3001')).toBe(403);
    expect(await signInFrom(t, email, 'http://localhost:3001')).toBe(403);
    expect(await signInFrom(t, email, 'https://evil.example')).toBe(403);
  });
});
