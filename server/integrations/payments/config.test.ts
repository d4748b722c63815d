import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

/** The payment settings (docs/configuration.md, docs/billing.md): which provider, and what is refused. */

const STRIPE = {
  STRIPE_SECRET_KEY: 'sk_test_abc',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc',
  STRIPE_PRICE_ID: 'price_abc',
};
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), SMTP_URL: 'smtp://mail:25' };

describe('payment settings', () => {
  it('use Stripe with its three keys, the test checkout without, 14 days of grace and 30 of trial by default', () => {
    expect(loadConfig(STRIPE).payments).toEqual({
      stripe: { secretKey: 'sk_test_abc', webhookSecret: 'whsec_abc', priceId: 'price_abc' },
      stripeApi: null,
      testCheckoutSecret: null,
      available: true,
      graceDays: 14,
      trialDays: 30,
    });
    expect(loadConfig({}).payments).toEqual({
      stripe: null,
      stripeApi: null,
      testCheckoutSecret: null,
      available: true,
      graceDays: 14,
      trialDays: 30,
    });
  });

  it('let the webhook secret alone sign the test checkout’s events', () => {
    const payments = loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_mine' }).payments;
    expect(payments).toMatchObject({ stripe: null, testCheckoutSecret: 'whsec_mine' });
  });

  it('refuse any other part of the Stripe keys, and keys of the wrong shape', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(/STRIPE_PRICE_ID: .*must be set together/);
    expect(() => loadConfig({ STRIPE_PRICE_ID: 'price_abc' })).toThrow(/STRIPE_SECRET_KEY: .*must be set together/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PRICE_ID: 'price_abc' })).toThrow(
      /STRIPE_WEBHOOK_SECRET: .*must be set together/,
    );
    expect(() => loadConfig({ ...STRIPE, STRIPE_SECRET_KEY: 'pk_test_abc' })).toThrow(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ ...STRIPE, STRIPE_PRICE_ID: 'prod_abc' })).toThrow(/STRIPE_PRICE_ID/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });

  it('point the Stripe client at STRIPE_API_URL (host, port, protocol)', () => {
    expect(loadConfig({ ...STRIPE, STRIPE_API_URL: 'http://127.0.0.1:12111' }).payments.stripeApi).toEqual({
      protocol: 'http',
      host: '127.0.0.1',
      port: 12111,
    });
    expect(loadConfig({ ...STRIPE, STRIPE_API_URL: 'https://stripe-proxy.internal' }).payments.stripeApi).toEqual({
      protocol: 'https',
      host: 'stripe-proxy.internal',
      port: 443,
    });
    expect(() => loadConfig({ STRIPE_API_URL: 'http://127.0.0.1:12111/v1' })).toThrow(/STRIPE_API_URL/);
  });

  it('take PAYMENT_GRACE_DAYS and PAYMENT_TRIAL_DAYS from 1 to 365', () => {
    expect(loadConfig({ PAYMENT_GRACE_DAYS: '30' }).payments.graceDays).toBe(30);
    expect(loadConfig({ PAYMENT_TRIAL_DAYS: '14' }).payments.trialDays).toBe(14);
    expect(() => loadConfig({ PAYMENT_GRACE_DAYS: '0' })).toThrow(/PAYMENT_GRACE_DAYS/);
    expect(() => loadConfig({ PAYMENT_GRACE_DAYS: '366' })).toThrow(/PAYMENT_GRACE_DAYS/);
    expect(() => loadConfig({ PAYMENT_TRIAL_DAYS: '0' })).toThrow(/PAYMENT_TRIAL_DAYS/);
  });

  it('never let production take payments through the test checkout unless told to', () => {
    expect(loadConfig(PRODUCTION).payments).toMatchObject({ stripe: null, available: false });
    expect(loadConfig({ ...PRODUCTION, STRIPE_WEBHOOK_SECRET: 'whsec_abc' }).payments.available).toBe(false);
    expect(loadConfig({ ...PRODUCTION, PAYMENT_TEST_CHECKOUT: 'true' }).payments).toMatchObject({
      stripe: null,
      available: true,
    });
    expect(loadConfig({ ...PRODUCTION, ...STRIPE }).payments).toMatchObject({ available: true });
    expect(loadConfig({ ...PRODUCTION, ...STRIPE }).payments.stripe).not.toBeNull();
  });
});

describe('the self-service sign-up (SELF_SERVICE_SIGNUP)', () => {
  it('is off by default in production, on in development and the tests (the demo)', () => {
    expect(loadConfig(PRODUCTION).selfServiceSignup).toBe(false);
    expect(loadConfig({}).selfServiceSignup).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).selfServiceSignup).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).selfServiceSignup).toBe(true);
    expect(loadConfig({ SELF_SERVICE_SIGNUP: 'false' }).selfServiceSignup).toBe(false);
    expect(() => loadConfig({ SELF_SERVICE_SIGNUP: 'maybe' })).toThrow(/SELF_SERVICE_SIGNUP/);
  });

  it('off, needs no payment setting in production', () => {
    const config = loadConfig({ ...PRODUCTION, SELF_SERVICE_SIGNUP: 'false' });
    expect(config.selfServiceSignup).toBe(false);
    expect(config.payments).toMatchObject({ stripe: null, available: false });
  });

  it('on in production without a payment set-up, refuses to start with the ways out', () => {
    const start = () => loadConfig({ ...PRODUCTION, SELF_SERVICE_SIGNUP: 'true' });
    expect(start).toThrow(/SELF_SERVICE_SIGNUP: is on in production/);
    expect(start).toThrow(/set STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PRICE_ID/);
    expect(start).toThrow(/SELF_SERVICE_SIGNUP=false/);
    expect(start).toThrow(/PAYMENT_TEST_CHECKOUT=true/);
    expect(() => loadConfig({ ...PRODUCTION, SELF_SERVICE_SIGNUP: 'true', STRIPE_WEBHOOK_SECRET: 'whsec_a' })).toThrow(
      /SELF_SERVICE_SIGNUP/,
    );
    expect(loadConfig({ ...PRODUCTION, SELF_SERVICE_SIGNUP: 'true', ...STRIPE }).selfServiceSignup).toBe(true);
    expect(
      loadConfig({ ...PRODUCTION, SELF_SERVICE_SIGNUP: 'true', PAYMENT_TEST_CHECKOUT: 'true' }).payments.available,
    ).toBe(true);
  });
});
