import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CaptchaChallenge } from '../../../common/api/auth';
import { loadConfig } from '../../config';
import { createBuiltinCaptcha } from '../../integrations/captcha';
import { solveChallenge } from '../../integrations/captcha/solve';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const decode = (answer: string) => JSON.parse(Buffer.from(answer, 'base64').toString());
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('self-hosted captcha', () => {
  const captcha = (secret = t.config.sessionSecret) =>
    createBuiltinCaptcha({ db: t.app.ctx.db, secret, cost: 1, maxNumber: 200 });

  it('serves an ALTCHA challenge whose work follows the configuration', async () => {
    const response = await request(t.app, null, { method: 'GET', url: '/api/captcha/challenge' });
    expect(response.statusCode).toBe(200);
    const challenge = CaptchaChallenge.parse(response.json());
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 1 });
    expect(challenge.parameters.expiresAt * 1000).toBeGreaterThan(Date.now());

    const costly = createBuiltinCaptcha({ db: t.app.ctx.db, secret: 'x'.repeat(32), cost: 5000, maxNumber: 10 });
    expect((await costly.challenge()).parameters.cost).toBe(5000);
    const defaults = loadConfig({});
    expect([defaults.captchaCost, defaults.captchaMaxNumber]).toEqual([1000, 2000]);
    expect(loadConfig({ CAPTCHA_COST: '20000' }).captchaCost).toBe(20000);
    expect(() => loadConfig({ CAPTCHA_COST: '0' })).toThrow(/CAPTCHA_COST/);
  });

  it('never hands out a cheap challenge: the secret counter lies in the upper half', async () => {
    const c = captcha();
    for (let i = 0; i < 5; i++) {
      const counter = decode(await solveChallenge(await c.challenge())).solution.counter;
      expect(counter).toBeGreaterThanOrEqual(100);
      expect(counter).toBeLessThanOrEqual(200);
    }
  });

  it('accepts a solution once', async () => {
    const c = captcha();
    const solution = await solveChallenge(await c.challenge());
    expect(await c.verify(solution, '127.0.0.1')).toBe(true);
    expect(await c.verify(solution, '127.0.0.1')).toBe(false);
  });

  it('refuses a missing answer, a wrong counter or key and a challenge signed with another secret', async () => {
    const c = captcha();
    expect(await c.verify(undefined, '127.0.0.1')).toBe(false);
    expect(await c.verify('', '127.0.0.1')).toBe(false);

    const answer = decode(await solveChallenge(await c.challenge()));
    const wrongKey = { ...answer, solution: { ...answer.solution, derivedKey: 'ab'.repeat(32) } };
    expect(await c.verify(encode(wrongKey), '127.0.0.1')).toBe(false);
    // Easier parameters than the server signed (a lower cost) break the signature.
    const cheaper = {
      ...answer,
      challenge: { ...answer.challenge, parameters: { ...answer.challenge.parameters, cost: 0 } },
    };
    expect(await c.verify(encode(cheaper), '127.0.0.1')).toBe(false);

    const foreign = captcha('another-secret-of-at-least-32-chars!!');
    expect(await c.verify(await solveChallenge(await foreign.challenge()), '127.0.0.1')).toBe(false);
  });

  it('refuses malformed answers without throwing (a 420, never a 500)', async () => {
    const c = captcha();
    const answer = decode(await solveChallenge(await c.challenge()));
    for (const signature of ['', 'ab', answer.challenge.signature.toUpperCase(), 'zz'.repeat(32), 42]) {
      expect(await c.verify(encode({ ...answer, challenge: { ...answer.challenge, signature } }), '127.0.0.1')).toBe(
        false,
      );
    }
    for (const counter of [-1, 1.5, 2 ** 32, '7']) {
      expect(await c.verify(encode({ ...answer, solution: { ...answer.solution, counter } }), '127.0.0.1')).toBe(false);
    }
    for (const value of ['%%%', encode('a string'), encode(null), encode([]), 'x'.repeat(4096)]) {
      expect(await c.verify(value, '127.0.0.1')).toBe(false);
    }
    // The widget's test mode answer is no solution.
    expect(await c.verify(encode({ challenge: null, solution: null, test: true }), '127.0.0.1')).toBe(false);
  });

  it('refuses a challenge older than 5 minutes', async () => {
    const c = captcha();
    vi.useFakeTimers({ now: Date.now() - 6 * 60_000, toFake: ['Date'] });
    const old = await c.challenge();
    vi.useRealTimers();
    expect(await c.verify(await solveChallenge(old), '127.0.0.1')).toBe(false);
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
