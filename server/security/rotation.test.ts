import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { type Config, ConfigError, loadConfig } from '../config';
import { SEALED_COLUMNS } from '../sealed-columns';
import { createCustomer, createInvitation, createLicence, createProduct, signedIn } from '../test/factories';
import { createTestApp, request, type TestApp } from '../test/harness';
import { createWebhookEndpoint } from '../test/webhooks';
import { insertSecret } from '../integrations/payments/builtin-store';
import { codeAt } from '../modules/two-factor/totp';
import { newWebhookSecret, sealWebhookSecret } from '../modules/webhooks/secrets';
import { openingSecretIndex } from './seal';

/**
 * Rotating SESSION_SECRET under a running install (docs/security.md): the portal restarted with the
 * new secret and the old one in SESSION_SECRET_PREVIOUS keeps every session signed in, opens every
 * sealed value and reseals it under the new secret, and signs licence files with the same key as
 * before. A start whose secrets open no stored key refuses, in production, to make a new one.
 */

const OLD = 'the-secret-before-the-rotation-0000000000';
const NEW = 'the-secret-after-the-rotation-11111111111';
const UNRELATED = 'a-secret-that-never-sealed-anything-22222';

let t: TestApp;
let customerId: number;
let admin: string;
let client: string;
let totpSecret: string;
let invitationId: number;

/** A start of the portal on the same database, as a restart with another configuration. */
async function restart(config: Partial<Config>): Promise<FastifyInstance> {
  return buildApp({ ...t.config, ...config }, { database: t.database, startBackgroundWork: false });
}

const activeKeyId = async () =>
  (
    await t.database.db
      .selectFrom('licenceSigningKeys')
      .select('keyId')
      .where('retiredAt', 'is', null)
      .executeTakeFirstOrThrow()
  ).keyId;

/** For each sealed column, how many of its values open under each of `secrets` (-1: none). */
async function openingOf(secrets: readonly string[]) {
  const counts: Record<string, number[]> = {};
  for (const { table, column, purpose } of SEALED_COLUMNS) {
    const rows = (await t.database.db
      // the registry names tables and columns as the schema does
      .selectFrom(table as 'invitations')
      .select(`${column} as value` as 'keySealed')
      .execute()) as unknown as { value: string | null }[];
    counts[`${table}.${column}`] = rows
      .filter((row) => row.value !== null)
      .map((row) => openingSecretIndex(secrets, purpose, row.value!));
  }
  return counts;
}

async function licenceFileKeyId(app: FastifyInstance) {
  const response = await request(app, client, {
    method: 'GET',
    url: `/api/download/license/rotation-product?customerId=${customerId}`,
  });
  expect(response.statusCode).toBe(200);
  const file = response.json();
  const keys = (await request(app, null, { method: 'GET', url: '/api/licence-files/keys' })).json().data as {
    keyId: string;
    publicKey: string;
  }[];
  const key = keys.find((k) => k.keyId === file.keyId)!;
  const verified = crypto.verify(
    null,
    Buffer.from(file.payload, 'ascii'),
    crypto.createPublicKey(key.publicKey),
    Buffer.from(file.signature, 'base64url'),
  );
  expect(verified).toBe(true);
  return file.keyId as string;
}

beforeAll(async () => {
  t = await createTestApp({ SESSION_SECRET: OLD });
  const { db } = t.app.ctx;
  customerId = (await createCustomer(db)).id;
  await createProduct(db, { key: 'rotation-product', name: 'Rotation Product' });
  await createLicence(db, customerId, 'rotation-product', { endDate: '2099-12-31' });
  invitationId = (await createInvitation(db, customerId, { sealWith: OLD })).id;
  await createWebhookEndpoint(db, OLD);
  // the built-in test checkout's event secret, made at its first need
  await insertSecret(db, sealWebhookSecret(OLD, newWebhookSecret()));
  // a mail waiting in the outbox: its body is sealed
  await t.app.ctx.mail.send({
    to: 'waiting@example.com',
    template: 'passwordReset',
    locale: 'en',
    data: { fullName: 'Waiting', link: `${t.config.baseUrl}/en/reset-password/rotation`, validityHours: 1 },
  });
  admin = (await signedIn(t.app, 'admin')).cookie;
  client = (await signedIn(t.app, 'client', { id: customerId, role: 'technicalContact' })).cookie;
  // an authenticator app: its secret is sealed too
  const started = await request(t.app, client, { method: 'POST', url: '/api/auth/two-factor/totp' });
  totpSecret = started.json().secret;
  const confirmed = await request(t.app, client, {
    method: 'POST',
    url: '/api/auth/two-factor/totp/confirm',
    payload: { code: codeAt(totpSecret, Date.now()), name: 'Phone' },
  });
  expect(confirmed.statusCode).toBe(200);
});

afterAll(async () => t?.close());

describe('SESSION_SECRET rotation', () => {
  it('has a line in the reseal list for every sealed column of the schema', async () => {
    const tables = await t.database.db.introspection.getTables();
    const sealed = tables.flatMap((table) =>
      table.columns.filter((column) => /sealed$/i.test(column.name)).map((column) => `${table.name}.${column.name}`),
    );
    const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const listed = SEALED_COLUMNS.map(({ table, column }) => `${snake(table)}.${snake(column)}`);
    expect(sealed.map(snake).sort()).toEqual([...listed].sort());
  });

  it('keeps sessions, the signing key and every sealed value across a restart with the new secret', async () => {
    const keyBefore = await activeKeyId();
    const fileKeyBefore = await licenceFileKeyId(t.app);
    const before = await openingOf([OLD]);
    // every sealed column holds at least one value, all under the old secret
    for (const [column, indexes] of Object.entries(before)) {
      expect(indexes.length, column).toBeGreaterThan(0);
      expect(
        indexes.every((index) => index === 0),
        column,
      ).toBe(true);
    }

    const rotated = await restart({ sessionSecret: NEW, sealSecrets: [NEW, OLD], allowNewSigningKey: false });
    try {
      // every value now opens under the new secret alone
      const after = await openingOf([NEW]);
      for (const [column, indexes] of Object.entries(after)) {
        expect(indexes, column).toEqual(before[column]!.map(() => 0));
      }
      expect(await activeKeyId()).toBe(keyBefore);
      expect(await licenceFileKeyId(rotated)).toBe(fileKeyBefore);
      // signed in as before, the admin reads the invitation links sealed before the rotation
      const me = await request(rotated, admin, { method: 'GET', url: '/api/auth/me' });
      expect(me.statusCode).toBe(200);
      const link = await request(rotated, admin, { method: 'GET', url: `/api/invitations/${invitationId}/link` });
      expect(link.statusCode).toBe(200);
      expect(link.body).toContain('/invitation/');
    } finally {
      await rotated.close();
    }

    // the previous secret can then go: nothing needs it any more
    const later = await restart({ sessionSecret: NEW, sealSecrets: [NEW], allowNewSigningKey: false });
    try {
      expect(await activeKeyId()).toBe(keyBefore);
      expect(await licenceFileKeyId(later)).toBe(fileKeyBefore);
    } finally {
      await later.close();
    }
  });

  it('refuses in production to replace a signing key no secret opens, and says how to go on', async () => {
    const keyBefore = await activeKeyId();
    const refused = restart({ sessionSecret: UNRELATED, sealSecrets: [UNRELATED], allowNewSigningKey: false });
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(/SESSION_SECRET_PREVIOUS.*ALLOW_NEW_SIGNING_KEY=true/s);
    expect(await activeKeyId()).toBe(keyBefore);

    // told to, it signs with a new key from then on; the old one stays published, retired
    const allowed = await restart({ sessionSecret: UNRELATED, sealSecrets: [UNRELATED], allowNewSigningKey: true });
    await allowed.close();
    const keys = await t.database.db.selectFrom('licenceSigningKeys').select(['keyId', 'retiredAt']).execute();
    expect(keys.find((k) => k.keyId === keyBefore)?.retiredAt).not.toBeNull();
    expect(keys.filter((k) => k.retiredAt === null).map((k) => k.keyId)).not.toContain(keyBefore);
  });
});

describe('SESSION_SECRET_PREVIOUS and ALLOW_NEW_SIGNING_KEY', () => {
  const production = {
    NODE_ENV: 'production',
    SESSION_SECRET: NEW,
    SMTP_URL: 'smtp://mail:25',
    PAYMENT_TEST_CHECKOUT: 'true',
  };

  it('lists the previous secrets after the current one', () => {
    const config = loadConfig({ SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: ` ${OLD} , ${UNRELATED}` });
    expect(config.sealSecrets).toEqual([NEW, OLD, UNRELATED]);
    expect(loadConfig({ SESSION_SECRET: NEW }).sealSecrets).toEqual([NEW]);
  });

  it('refuses a previous secret too short to have been a secret, naming the variable', () => {
    expect(() => loadConfig({ SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: 'short' })).toThrow(
      /SESSION_SECRET_PREVIOUS.*at least 32 characters/,
    );
  });

  it('lets a new signing key replace an unreadable one only when told to in production', () => {
    expect(loadConfig({ SESSION_SECRET: NEW }).allowNewSigningKey).toBe(true);
    expect(loadConfig(production).allowNewSigningKey).toBe(false);
    expect(loadConfig({ ...production, ALLOW_NEW_SIGNING_KEY: 'true' }).allowNewSigningKey).toBe(true);
  });
});
