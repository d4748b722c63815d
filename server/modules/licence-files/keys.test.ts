import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LicenceSigningKeyList } from '../../../common/api/licence-files';
import { buildApp } from '../../app';
import { systemActor } from '../../actor';
import { createContext } from '../../compose';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { configuredSigningKeyPair, generateSigningKeyPair, sealPrivateKey, unsealPrivateKey } from './keys';
import { KEYS_CACHE_CONTROL } from './routes';
import { CONFIGURED_KEY_ROTATION, ensureSigningKey, rotateSigningKey } from './service';

/** The keys that sign licence files: made at start, published, rotated, configured. */

const newPem = () =>
  crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

async function publishedKeys(t: TestApp) {
  const response = await request(t.app, null, { method: 'GET', url: '/api/licence-files/keys' });
  expect(response.statusCode).toBe(200);
  return { response, keys: LicenceSigningKeyList.parse(response.json()).data };
}

/** Signs with the stored key of this id (unsealed) and checks the published public key verifies it. */
function publishedKeyVerifies(publicPem: string, privateKey: crypto.KeyObject) {
  const message = Buffer.from('message');
  return crypto.verify(null, message, crypto.createPublicKey(publicPem), crypto.sign(null, message, privateKey));
}

describe('sealing a private key', () => {
  it('opens under the same secret only, and not once altered', () => {
    const { privateKey } = generateSigningKeyPair();
    const sealed = sealPrivateKey('secret-one-that-is-long-enough-0000000', privateKey);
    const opened = unsealPrivateKey('secret-one-that-is-long-enough-0000000', sealed);
    expect(opened?.export({ type: 'pkcs8', format: 'pem' })).toEqual(
      privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    expect(unsealPrivateKey('another-secret-that-is-long-enough-00000', sealed)).toBeNull();
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3]!, 'base64url');
    data[0] = data[0]! ^ 1;
    expect(
      unsealPrivateKey(
        'secret-one-that-is-long-enough-0000000',
        [...parts.slice(0, 3), data.toString('base64url')].join('.'),
      ),
    ).toBeNull();
  });

  it('names a configured key by its public key, the same on every node', () => {
    const pem = newPem();
    expect(configuredSigningKeyPair(pem).keyId).toBe(configuredSigningKeyPair(pem).keyId);
    expect(configuredSigningKeyPair(pem).keyId).not.toBe(configuredSigningKeyPair(newPem()).keyId);
  });
});

describe('GET /api/licence-files/keys with a generated key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('publishes the key made at start to anyone, cacheable', async () => {
    const { response, keys } = await publishedKeys(t);
    expect(response.headers['cache-control']).toBe(KEYS_CACHE_CONTROL);
    expect(keys).toHaveLength(1);
    const [key] = keys;
    expect(key).toMatchObject({ algorithm: 'Ed25519', retiredAt: null });
    expect(key!.keyId).toMatch(/^[\w-]{12}$/);
    expect(key!.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(crypto.createPublicKey(key!.publicKey).asymmetricKeyType).toBe('ed25519');
    // the stored private half matches the published public one
    const row = await t.database.db
      .selectFrom('licenceSigningKeys')
      .selectAll()
      .where('keyId', '=', key!.keyId)
      .executeTakeFirstOrThrow();
    const privateKey = unsealPrivateKey(t.config.sessionSecret, row.privateKeySealed!);
    expect(privateKey && publishedKeyVerifies(key!.publicKey, privateKey)).toBe(true);
  });

  it('keeps the same key when the portal starts again', async () => {
    const before = (await publishedKeys(t)).keys;
    const again = await buildApp(t.config, { database: t.database, startBackgroundWork: false });
    await again.close();
    expect((await publishedKeys(t)).keys).toEqual(before);
  });

  it('publishes a rotated key first and keeps the retired one', async () => {
    const before = (await publishedKeys(t)).keys;
    const rotated = await rotateSigningKey(t.app.ctx, systemActor('test'));
    expect(rotated.retiredKeyId).toBe(before[0]!.keyId);
    const after = (await publishedKeys(t)).keys;
    expect(after.map((k) => k.keyId)).toEqual([rotated.keyId, ...before.map((k) => k.keyId)]);
    expect(after[0]!.retiredAt).toBeNull();
    expect(after.slice(1).every((k) => k.retiredAt !== null)).toBe(true);
    const activeCount = after.filter((k) => k.retiredAt === null).length;
    expect(activeCount).toBe(1);
  });

  it('makes one active key only when several nodes start at once on a database without one', async () => {
    await t.database.db.updateTable('licenceSigningKeys').set({ retiredAt: new Date().toISOString() }).execute();
    const nodes = Array.from({ length: 5 }, () =>
      createContext({ config: t.config, database: t.database, log: t.app.log }),
    );
    const ids = await Promise.all(nodes.map((ctx) => ensureSigningKey(ctx)));
    await Promise.all(nodes.map((ctx) => ctx.mail.close()));
    const active = await t.database.db
      .selectFrom('licenceSigningKeys')
      .select('keyId')
      .where('retiredAt', 'is', null)
      .execute();
    expect(active).toHaveLength(1);
    expect(new Set(ids)).toEqual(new Set([active[0]!.keyId]));
  });

  it('refuses a second active key in the database itself', async () => {
    const error = await t.database.db
      .insertInto('licenceSigningKeys')
      .values({
        keyId: 'second-active',
        algorithm: 'Ed25519',
        publicKey: generateSigningKeyPair().publicKey,
        privateKeySealed: null,
        createdAt: new Date().toISOString(),
        retiredAt: null,
      })
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).not.toBeNull();
  });

  it('replaces a key sealed under a secret no longer listed, which stays published (outside production)', async () => {
    const before = (await publishedKeys(t)).keys;
    const secret = 'another-session-secret-that-is-long-enough';
    const other = await buildApp(
      { ...t.config, sessionSecret: secret, sealSecrets: [secret] },
      { database: t.database, startBackgroundWork: false },
    );
    await other.close();
    const after = (await publishedKeys(t)).keys;
    expect(after).toHaveLength(before.length + 1);
    expect(after.slice(1).map((k) => k.keyId)).toEqual(before.map((k) => k.keyId));
  });
});

describe('a configured key (LICENCE_SIGNING_KEY)', () => {
  const pem = newPem();
  const configured = configuredSigningKeyPair(pem);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ LICENCE_SIGNING_KEY: pem });
  });
  afterAll(async () => t?.close());

  it('is the published active key, its private half not stored', async () => {
    const { keys } = await publishedKeys(t);
    expect(keys).toEqual([expect.objectContaining({ keyId: configured.keyId, retiredAt: null })]);
    expect(publishedKeyVerifies(keys[0]!.publicKey, configured.privateKey)).toBe(true);
    const row = await t.database.db.selectFrom('licenceSigningKeys').selectAll().executeTakeFirstOrThrow();
    expect(row.privateKeySealed).toBeNull();
  });

  it('is not rotated by the portal', async () => {
    await expect(rotateSigningKey(t.app.ctx, systemActor('test'))).rejects.toThrow(CONFIGURED_KEY_ROTATION);
  });

  it('when changed, signs in place of the previous one, which stays published', async () => {
    const next = newPem();
    const nextId = configuredSigningKeyPair(next).keyId;
    const restarted = await buildApp(
      { ...t.config, licenceSigningKey: next },
      { database: t.database, startBackgroundWork: false },
    );
    await restarted.close();
    const { keys } = await publishedKeys(t);
    expect(keys.map((k) => [k.keyId, k.retiredAt === null])).toEqual([
      [nextId, true],
      [configured.keyId, false],
    ]);
  });

  it('once removed from the configuration, gives way to a generated key', async () => {
    const restarted = await buildApp(
      { ...t.config, licenceSigningKey: null },
      { database: t.database, startBackgroundWork: false },
    );
    await restarted.close();
    const { keys } = await publishedKeys(t);
    expect(keys).toHaveLength(3);
    const active = await t.database.db
      .selectFrom('licenceSigningKeys')
      .selectAll()
      .where('retiredAt', 'is', null)
      .executeTakeFirstOrThrow();
    expect(active.keyId).toBe(keys[0]!.keyId);
    expect(active.privateKeySealed).not.toBeNull();
  });
});
