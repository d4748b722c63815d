import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../common/api/errors';
import { LicenceFile, LicenceFilePayload, LicenceSigningKeyList } from '../../../common/api/licence-files';
import { addDays, utcToday } from '../../../common/licence-status';
import { systemActor } from '../../actor';
import { createCustomer, createLicence, createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { LICENCE_EXPIRED, LICENCE_NOT_FOUND } from './licence-file';
import { rotateSigningKey } from './service';

/** GET /api/download/license/{productKey}?customerId: the signed licence file, and its documented verification. */

const root = path.resolve(import.meta.dirname, '../../..');

let t: TestApp;
let portal: string;
let dir: string;
let customerId: number;
let otherCustomerId: number;
let licenceId: number;
let tech: string;
let owner: string;
let endUser: string;
let outsider: string;
let admin: string;

// a customer key of 10 characters, not all ASCII, to check the attachment's name
const CUSTOMER_KEY = 'ÉCLAIR-東京1';
const PRODUCT = { key: 'graph-server', name: 'Graph Server' };

const urlOf = (productKey: string, customer: number | string) =>
  `/api/download/license/${encodeURIComponent(productKey)}?customerId=${customer}`;

const download = (cookie: string | null, productKey = PRODUCT.key, customer: number | string = customerId) =>
  request(t.app, cookie, { method: 'GET', url: urlOf(productKey, customer) });

const auditEntries = () =>
  t.database.db
    .selectFrom('auditLog')
    .selectAll()
    .where('customerId', '=', customerId)
    .where('action', '=', 'downloadLicenceFile')
    .execute();

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  portal = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-licence-file-'));
  const { db } = t.app.ctx;
  customerId = (await createCustomer(db, { name: 'Éclair Analytics', customerKey: CUSTOMER_KEY })).id;
  otherCustomerId = (await createCustomer(db)).id;
  await createProduct(db, PRODUCT);
  licenceId = (await createLicence(db, customerId, PRODUCT.key, { accessLevel: 'beta', endDate: '2099-12-31' })).id;
  await db.updateTable('licences').set({ data: '{"seats":25}' }).where('id', '=', licenceId).execute();
  tech = (await signedIn(t.app, 'client', { id: customerId, role: 'technicalContact' })).cookie;
  owner = (await signedIn(t.app, 'client', { id: customerId, role: 'businessOwner' })).cookie;
  endUser = (await signedIn(t.app, 'client', { id: customerId, role: 'endUser' })).cookie;
  outsider = (await signedIn(t.app, 'client', { id: otherCustomerId, role: 'technicalContact' })).cookie;
  admin = (await signedIn(t.app, 'admin')).cookie;
});

afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function errorOf(response: LightMyRequestResponse) {
  return (response.json() as { error: { code: string; message: string } }).error;
}

async function publishedKeys() {
  const response = await request(t.app, null, { method: 'GET', url: '/api/licence-files/keys' });
  return LicenceSigningKeyList.parse(response.json()).data;
}

function decode(file: LicenceFile): LicenceFilePayload {
  return LicenceFilePayload.parse(JSON.parse(Buffer.from(file.payload, 'base64url').toString('utf8')));
}

describe('GET /api/download/license/:productKey', () => {
  it('401 without a session', async () => {
    const response = await download(null);
    expect(response.statusCode).toBe(401);
    expect(errorOf(response).code).toBe(ERROR_CODES.unauthenticated);
  });

  it('400 without a customerId, or with one that is not an id', async () => {
    const missing = await request(t.app, tech, { method: 'GET', url: `/api/download/license/${PRODUCT.key}` });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing).code).toBe(ERROR_CODES.validation);
    expect(errorOf(missing).message).toContain('customerId');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const response = await download(tech, PRODUCT.key, bad);
      expect(response.statusCode, bad).toBe(400);
      expect(errorOf(response).code).toBe(ERROR_CODES.validation);
    }
  });

  it('403 for a role without download there, 404 for a caller with no role in the customer', async () => {
    const refused = await download(endUser);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe(ERROR_CODES.forbidden);
    const hidden = await download(outsider);
    expect(hidden.statusCode).toBe(404);
    // an unknown customer answers the same
    expect((await download(outsider, PRODUCT.key, 2_000_000)).statusCode).toBe(404);
    expect(await auditEntries()).toHaveLength(0);
  });

  it('404 for a product the customer holds no licence of, known or not', async () => {
    const unlicensed = await createProduct(t.app.ctx.db, { name: 'Unlicensed' });
    for (const productKey of [unlicensed.key, 'no-such-product']) {
      const response = await download(tech, productKey);
      expect(response.statusCode, productKey).toBe(404);
      expect(errorOf(response)).toMatchObject({ code: ERROR_CODES.notFound, message: LICENCE_NOT_FOUND });
    }
    // the other customer's licence is not this one's
    await createLicence(t.app.ctx.db, otherCustomerId, unlicensed.key);
    expect((await download(admin, unlicensed.key)).statusCode).toBe(404);
  });

  it('answers the signed licence as an attachment and records the download', async () => {
    const before = Date.now();
    const response = await download(tech);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="ECLAIR-__1-graph-server.license.json"; filename*=UTF-8''${encodeURIComponent(
        `${CUSTOMER_KEY}-graph-server.license.json`,
      )}`,
    );

    const file = LicenceFile.parse(response.json());
    expect(Object.keys(response.json() as object).sort()).toEqual([
      'algorithm',
      'format',
      'keyId',
      'payload',
      'signature',
    ]);
    const [active] = await publishedKeys();
    expect(file).toMatchObject({ format: 1, algorithm: 'Ed25519', keyId: active!.keyId });
    expect(file.payload).toMatch(/^[\w-]+$/);
    const payload = decode(file);
    expect(payload).toEqual({
      licenceId,
      customer: { name: 'Éclair Analytics', key: CUSTOMER_KEY },
      product: PRODUCT,
      accessLevel: 'beta',
      startDate: addDays(utcToday(), -365),
      endDate: '2099-12-31',
      data: { seats: 25 },
      issuedAt: payload.issuedAt,
      keyId: active!.keyId,
    });
    expect(Date.parse(payload.issuedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(payload.issuedAt)).toBeLessThanOrEqual(Date.now());

    const verified = crypto.verify(
      null,
      Buffer.from(file.payload, 'ascii'),
      crypto.createPublicKey(active!.publicKey),
      Buffer.from(file.signature, 'base64url'),
    );
    expect(verified).toBe(true);

    const entries = await auditEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]!.actorEmail).toMatch(/@example\.com$/);
    expect(JSON.parse(entries[0]!.data)).toEqual({
      productName: PRODUCT.name,
      productKey: PRODUCT.key,
      licenceId,
    });
  });

  it('serves staff and the project manager too', async () => {
    for (const cookie of [admin, owner]) expect((await download(cookie)).statusCode).toBe(200);
  });

  it('still serves a licence in its grace period, refuses one past it with the spec message', async () => {
    const { db } = t.app.ctx;
    const grace = await createProduct(db, { name: 'In Grace' });
    await createLicence(db, customerId, grace.key, { endDate: addDays(utcToday(), -30) });
    expect((await download(tech, grace.key)).statusCode).toBe(200);

    const expired = await createProduct(db, { name: 'Expired' });
    await createLicence(db, customerId, expired.key, { endDate: addDays(utcToday(), -31) });
    const entriesBefore = (await auditEntries()).length;
    const response = await download(tech, expired.key);
    expect(response.statusCode).toBe(403);
    expect(errorOf(response)).toEqual({
      code: ERROR_CODES.licenceExpired,
      message: 'Your license is expired, please contact your account manager',
    });
    expect(LICENCE_EXPIRED).toBe('Your license is expired, please contact your account manager');
    expect(await auditEntries()).toHaveLength(entriesBefore);
  });
});

/** The verification example of docs/licence-files.md, as it stands there. */
function documentedVerifier(): string {
  const doc = fs.readFileSync(path.join(root, 'docs/licence-files.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Verifying a file in Node'));
  const block = /```js\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('no js block under "Verifying a file in Node" in docs/licence-files.md');
  const file = path.join(dir, 'verify-licence.mjs');
  fs.writeFileSync(file, block[1]!);
  return file;
}

function runVerifier(
  script: string,
  licence: unknown,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const licencePath = path.join(dir, `licence-${crypto.randomBytes(4).toString('hex')}.json`);
  fs.writeFileSync(licencePath, typeof licence === 'string' ? licence : JSON.stringify(licence));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, licencePath, portal], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the verification example of docs/licence-files.md', () => {
  it('verifies a downloaded file and refuses one changed by a single byte or signed by an unknown key', async () => {
    const script = documentedVerifier();
    const response = await download(tech);
    const file = LicenceFile.parse(response.json());

    const good = await runVerifier(script, response.body);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toEqual(decode(file));

    // one byte of the payload changed: the customer's name
    const payloadBytes = Buffer.from(file.payload, 'base64url');
    const at = payloadBytes.indexOf('Éclair');
    payloadBytes[at + 2] = payloadBytes[at + 2]! ^ 0x20; // "cl" -> "Cl"
    const tampered = { ...file, payload: payloadBytes.toString('base64url') };
    expect(JSON.parse(payloadBytes.toString('utf8')).customer.name).toBe('ÉClair Analytics');
    const refused = await runVerifier(script, tampered);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('This licence file is not signed by the portal');

    // a signature from a key the portal never published
    const stranger = crypto.generateKeyPairSync('ed25519').privateKey;
    const forged = {
      ...file,
      signature: crypto.sign(null, Buffer.from(file.payload, 'ascii'), stranger).toString('base64url'),
    };
    expect((await runVerifier(script, forged)).code).toBe(1);
    expect((await runVerifier(script, { ...file, keyId: 'unknown-key' })).code).toBe(1);
  });

  it('still verifies a file signed by a key rotated out, which stays published', async () => {
    const script = documentedVerifier();
    const before = LicenceFile.parse((await download(tech)).json());
    const { keyId, retiredKeyId } = await rotateSigningKey(t.app.ctx, systemActor('test'));
    expect(retiredKeyId).toBe(before.keyId);

    const after = LicenceFile.parse((await download(tech)).json());
    expect(after.keyId).toBe(keyId);
    expect(after.keyId).not.toBe(before.keyId);
    const keys = await publishedKeys();
    expect(keys.find((k) => k.keyId === before.keyId)?.retiredAt).not.toBeNull();

    for (const file of [before, after]) {
      const result = await runVerifier(script, file);
      expect(result.code, file.keyId).toBe(0);
      expect(JSON.parse(result.stdout).keyId).toBe(file.keyId);
    }
    // the old key's signature does not pass for the new key's id
    expect((await runVerifier(script, { ...before, keyId: after.keyId })).code).toBe(1);
  });
});
