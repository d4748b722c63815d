import type { FastifyInstance } from 'fastify';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { authorize, oidcEnv, signedInAt } from '../../test/oidc';

/**
 * No working token of the provider rests in the database (decision 083): after a sign-in, a code
 * exchange and a refresh, no column of oidc_models holds the code, a token or the provider's session
 * cookie, and what a row holds opens nothing; the tokens themselves keep working.
 */
let t: TestApp;
let app: FastifyInstance;
const current = () => app;

beforeAll(async () => {
  t = await createTestApp(oidcEnv());
  app = t.app;
});
afterAll(async () => t?.close());

async function storedRows() {
  return app.ctx.db.selectFrom('oidcModels').selectAll().execute();
}

const userinfo = (token: string) =>
  app.inject({ url: '/oidc/me', headers: { host: 'portal.test', authorization: `Bearer ${token}` } });

describe('the provider state at rest', () => {
  it('holds no code, token or session cookie, and a copied row is of no use', async () => {
    const { user, config, browser } = await signedInAt(current, 'academy');
    const { url, verifier, state, nonce } = await authorize(
      config,
      'http://academy.test/callback',
      'openid email offline_access',
    );
    const callback = new URL((await browser.follow(url.href)).location);
    const code = callback.searchParams.get('code')!;
    expect(code).toBeTruthy();
    const session = /(?:^|; )_session=([^;]+)/.exec(browser.cookieHeader)?.[1];
    expect(session).toBeTruthy();
    const beforeExchange = JSON.stringify(await storedRows());
    expect(beforeExchange).not.toContain(code);
    expect(beforeExchange).not.toContain(session);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.refresh_token).toBeTruthy();
    const rows = await storedRows();
    const models = new Set(rows.map((r) => r.model));
    expect(models).toEqual(new Set(['Session', 'Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken']));
    const everything = JSON.stringify(rows);
    for (const secret of [code, session!, tokens.access_token, tokens.refresh_token!]) {
      expect(everything).not.toContain(secret);
    }

    expect((await userinfo(tokens.access_token)).statusCode).toBe(200);
    // whatever a copied row holds, presented as a refresh token or an access token, opens nothing
    const copied = rows.filter((r) => r.model === 'RefreshToken' || r.model === 'AccessToken');
    for (const row of copied) {
      const payload = JSON.parse(row.payload) as Record<string, unknown>;
      const candidates = [row.id, ...Object.values(payload).filter((v): v is string => typeof v === 'string')];
      for (const candidate of candidates) {
        const refused = await client.refreshTokenGrant(config, candidate).catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(client.ResponseBodyError);
        expect((refused as client.ResponseBodyError).error).toBe('invalid_grant');
        // 401 for a token it does not know, 400 for a value no token looks like (a scope with spaces)
        expect([400, 401]).toContain((await userinfo(candidate)).statusCode);
      }
    }

    // the real ones still work: a refresh, then userinfo with the new access token
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeTruthy();
    const info = await client.fetchUserInfo(config, refreshed.access_token, String(user.id));
    expect(info).toMatchObject({ sub: String(user.id), email: user.email });
    const afterRefresh = JSON.stringify(await storedRows());
    for (const secret of [refreshed.access_token, refreshed.refresh_token!]) {
      expect(afterRefresh).not.toContain(secret);
    }

    // the provider's session, found by its cookie, still signs the browser in without the login page
    const again = await authorize(config, 'http://academy.test/callback', 'openid');
    expect(new URL((await browser.follow(again.url.href)).location).origin).toBe('http://academy.test');
  });
});
