import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

/** OIDC_CLIENTS and OIDC_COOKIE_KEYS, checked at start (docs/oidc.md, docs/configuration.md). */
const base = { NODE_ENV: 'test', SESSION_SECRET: 'test-session-secret-that-is-long-enough-000' };
const client = { client_id: 'academy', redirect_uris: ['https://academy.example.com/cb'] };
const load = (env: Record<string, string>) => loadConfig({ ...base, ...env });
const refusal = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  return null;
};

describe('OIDC_CLIENTS', () => {
  it('takes a JSON array of clients, with their defaults', () => {
    const config = load({ OIDC_CLIENTS: JSON.stringify([client]) });
    expect(config.oidc.clients).toEqual([{ ...client, post_logout_redirect_uris: [], first_party: false }]);
    expect(load({}).oidc.clients).toEqual([]);
  });

  it('refuses what is not a list of valid clients, saying where', () => {
    expect(refusal({ OIDC_CLIENTS: '{' })).toContain('OIDC_CLIENTS: must be a JSON array of clients');
    expect(refusal({ OIDC_CLIENTS: JSON.stringify([{ ...client, redirect_uris: [] }]) })).toContain(
      'OIDC_CLIENTS: 0.redirect_uris: needs at least one redirect URI',
    );
    expect(refusal({ OIDC_CLIENTS: JSON.stringify([{ ...client, client_secret: 'short' }]) })).toContain(
      '0.client_secret: must be at least 32 characters',
    );
    expect(refusal({ OIDC_CLIENTS: JSON.stringify([client, client]) })).toContain(
      '1.client_id: academy is given twice',
    );
    expect(refusal({ OIDC_CLIENTS: JSON.stringify([{ ...client, scope: 'x' }]) })).toContain('OIDC_CLIENTS');
    expect(
      refusal({ OIDC_CLIENTS: JSON.stringify([{ ...client, redirect_uris: ['https://a.example.com/cb#x'] }]) }),
    ).toContain('must not have a fragment');
  });

  it('wants https redirect URIs in production, the machine itself aside', () => {
    const production = {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://mail.example.com',
      PAYMENT_TEST_CHECKOUT: 'true',
    };
    const plain = { ...client, redirect_uris: ['http://academy.example.com/cb'] };
    expect(refusal({ ...production, OIDC_CLIENTS: JSON.stringify([plain]) })).toContain(
      'must be https:// in production',
    );
    const local = { ...client, redirect_uris: ['http://127.0.0.1:8080/cb'] };
    expect(refusal({ ...production, OIDC_CLIENTS: JSON.stringify([local]) })).toBeNull();
  });
});

describe('OIDC_COOKIE_KEYS', () => {
  it('takes keys of 32 characters or more, else derives one from SESSION_SECRET', () => {
    const keys = `${'a'.repeat(32)},${'b'.repeat(40)}`;
    expect(load({ OIDC_COOKIE_KEYS: keys }).oidc.cookieKeys).toEqual(['a'.repeat(32), 'b'.repeat(40)]);
    expect(refusal({ OIDC_COOKIE_KEYS: 'short' })).toContain('OIDC_COOKIE_KEYS');
    const derived = load({}).oidc.cookieKeys;
    expect(derived).toHaveLength(1);
    expect(derived[0]).not.toContain(base.SESSION_SECRET);
    expect(load({ SESSION_SECRET: 'another-session-secret-that-is-long-enough' }).oidc.cookieKeys).not.toEqual(derived);
  });
});
