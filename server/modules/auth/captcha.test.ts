import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBuiltinCaptcha } from '../../integrations/captcha';
import { solveChallenge } from '../../integrations/captcha/solve';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('self-hosted captcha', () => {
  const captcha = () => createBuiltinCaptcha({ db: t.app.ctx.db, secret: t.config.sessionSecret, maxNumber: 500 });

  it('accepts a solution once', async () => {
    const c = captcha();
    const solution = solveChallenge(c.challenge());
    expect(await c.verify(solution, '127.0.0.1')).toBe(true);
    expect(await c.verify(solution, '127.0.0.1')).toBe(false);
  });

  it('refuses a missing answer, a wrong number and a challenge signed with another secret', async () => {
    const c = captcha();
    expect(await c.verify(undefined, '127.0.0.1')).toBe(false);
    expect(await c.verify('', '127.0.0.1')).toBe(false);

    const solution = JSON.parse(Buffer.from(solveChallenge(c.challenge()), 'base64').toString());
    const wrong = Buffer.from(JSON.stringify({ ...solution, number: solution.number + 1 })).toString('base64');
    expect(await c.verify(wrong, '127.0.0.1')).toBe(false);

    const foreign = createBuiltinCaptcha({
      db: t.app.ctx.db,
      secret: 'another-secret-of-at-least-32-chars!!',
      maxNumber: 500,
    });
    expect(await c.verify(solveChallenge(foreign.challenge()), '127.0.0.1')).toBe(false);
  });

  it('refuses a challenge older than 5 minutes', async () => {
    const c = captcha();
    const now = Date.now();
    const spy = vi.spyOn(Date, 'now').mockReturnValue(now - 6 * 60_000);
    const old = c.challenge();
    spy.mockRestore();
    expect(await c.verify(solveChallenge(old), '127.0.0.1')).toBe(false);
  });
});

describe('with reCAPTCHA configured', () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ RECAPTCHA_SITE_KEY: 'site-key', RECAPTCHA_SECRET_KEY: 'secret-key' });
  });
  afterAll(async () => r?.close());

  it('offers no self-hosted challenge and tells the client which provider to use', async () => {
    const challenge = await request(r.app, null, { method: 'GET', url: '/api/captcha/challenge' });
    expect(challenge.statusCode).toBe(404);
    expect(challenge.json().error.code).toBe('not_found');
    const config = await request(r.app, null, { method: 'GET', url: '/api/config' });
    expect(config.json().captcha).toEqual({ provider: 'recaptcha', siteKey: 'site-key' });
  });
});
