import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../actor';
import { createTestApp, type TestApp } from '../../test/harness';
import { providerJwks, RETIRED_KEY_PUBLISHED_MS, rotateOidcSigningKey } from './signing-keys';

/** The provider's signing keys: kept sealed in the database, rotated like the licence keys. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const ANOTHER_SECRET = 'another-session-secret-that-is-long-enough';

describe('OpenID Connect signing keys', () => {
  it('are sealed, and a rotation publishes the new key first and keeps the old one for a while', async () => {
    const ctx = t.app.ctx;
    const before = await providerJwks(ctx);
    expect(before.keys).toHaveLength(1);
    const rows = await ctx.db.selectFrom('oidcSigningKeys').selectAll().execute();
    expect(rows.every((r) => r.privateKeySealed.startsWith('v1.') && !r.privateKeySealed.includes('"d"'))).toBe(true);

    const rotated = await rotateOidcSigningKey(ctx, systemActor('test'));
    expect(rotated.retiredKeyId).toBe(before.keys[0].kid);
    const after = await providerJwks(ctx);
    expect(after.keys.map((k) => k.kid)).toEqual([rotated.keyId, rotated.retiredKeyId]);
    expect(after.keys[0]).toMatchObject({ alg: 'RS256', use: 'sig', kty: 'RSA' });

    const later = await providerJwks(ctx, Date.now() + RETIRED_KEY_PUBLISHED_MS + 60_000);
    expect(later.keys.map((k) => k.kid)).toEqual([rotated.keyId]);
  });

  it('are unusable under another SESSION_SECRET: a start makes a new one that signs', async () => {
    const ctx = t.app.ctx;
    const activeKey = async () =>
      (
        await ctx.db
          .selectFrom('oidcSigningKeys')
          .select('keyId')
          .where('retiredAt', 'is', null)
          .executeTakeFirstOrThrow()
      ).keyId;
    const before = await activeKey();
    const { buildApp } = await import('../../app');
    const other = await buildApp(
      { ...t.config, sessionSecret: ANOTHER_SECRET, sealSecrets: [ANOTHER_SECRET] },
      { database: t.database, startBackgroundWork: false },
    );
    try {
      const after = await activeKey();
      expect(after).not.toBe(before);
      expect((await providerJwks(other.ctx)).keys.map((k) => k.kid)).toEqual([after]);
    } finally {
      await other.close();
    }
  });
});
