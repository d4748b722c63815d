import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDownloadPath } from '../../../common/api/catalogue';
import { addDays, utcToday } from '../../../common/licence-status';
import { findLicence } from '../licences/repo';
import {
  createCustomer,
  createLicence,
  createProduct,
  createVersion,
  createVersionWithFiles,
  signedIn,
} from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

/**
 * GET /api/get/{platform}/{productKey}/{semVer}/?secret=: no session, the licence's download secret
 * decides. Accepted and refused secrets, `latest`, traversal attempts, and the per-address limit on
 * wrong secrets.
 */
let t: TestApp;
let secret: string;
let licenceId: number;
let customerId: number;
const files = {
  old: crypto.randomBytes(1000),
  nine: crypto.randomBytes(2000),
  ten: crypto.randomBytes(3000),
};
let versions: Record<keyof typeof files, { id: number; artifactId: number }>;

beforeAll(async () => {
  t = await createTestApp();
  const { ctx } = t.app;
  await createProduct(ctx.db, { key: 'viz', name: 'Viz' });
  await createProduct(ctx.db, { key: 'other', name: 'Other' });
  customerId = (await createCustomer(ctx.db)).id;
  const licence = await createLicence(ctx.db, customerId, 'viz');
  licenceId = licence.id;
  secret = (await findLicence(ctx.db, licence.id))!.downloadSecret;
  const made = {} as typeof versions;
  for (const [name, semVer] of [
    ['old', '1.2.0'],
    ['ten', '1.10.0'],
    ['nine', '1.9.0'],
  ] as const) {
    const version = await createVersionWithFiles(ctx, 'viz', { semVer, files: { linux: { bytes: files[name] } } });
    made[name] = { id: version.id, artifactId: version.artifacts.linux!.id };
  }
  versions = made;
  // newer, but not for this licence or not for linux: `latest` passes them by
  await createVersionWithFiles(ctx, 'viz', {
    semVer: '2.0.0-beta.1',
    type: 'beta',
    files: { linux: { bytes: files.old } },
  });
  await createVersionWithFiles(ctx, 'viz', { semVer: '1.11.0', files: { windows: { bytes: files.old } } });
  await createVersionWithFiles(ctx, 'viz', {
    semVer: '1.12.0',
    published: false,
    files: { linux: { bytes: files.old } },
  });
});
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  request(t.app, null, { method: 'GET', url, headers });

describe('the secret URL', () => {
  it('serves the version named, with or without the trailing slash, to anyone holding the secret', async () => {
    const url = secretDownloadPath('linux', 'viz', '1.9.0', secret);
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(files.nine)).toBe(true);
    expect(response.headers['content-disposition']).toBe('attachment; filename="viz-1.9.0-linux.zip"');
    const bare = await get(url.replace('/?', '?'));
    expect(bare.statusCode).toBe(200);
    expect(bare.rawPayload.equals(files.nine)).toBe(true);
  });

  it('serves `latest`: the newest allowed published version with an artifact for the platform (semver order)', async () => {
    const response = await get(secretDownloadPath('linux', 'viz', 'latest', secret));
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(files.ten)).toBe(true);
    expect((await get(secretDownloadPath('osx', 'viz', 'latest', secret))).statusCode).toBe(404);
  });

  it('resumes with Range like the other route', async () => {
    const response = await get(secretDownloadPath('linux', 'viz', '1.2.0', secret), { range: 'bytes=900-' });
    expect(response.statusCode).toBe(206);
    expect(response.rawPayload.equals(files.old.subarray(900))).toBe(true);
  });

  it('records an anonymous download for the licence customer', async () => {
    const { db } = t.app.ctx;
    const audit = () => db.selectFrom('auditLog').selectAll().where('customerId', '=', customerId).execute();
    const downloads = () =>
      db.selectFrom('downloads').selectAll().where('artifactId', '=', versions.ten.artifactId).execute();
    await t.app.ctx.jobs.drain();
    const before = await audit();
    const downloadsBefore = (await downloads()).length;
    expect((await get(secretDownloadPath('linux', 'viz', '1.10.0', secret))).statusCode).toBe(200);
    // written beside the transfer
    await t.app.ctx.jobs.drain();
    const rows = await downloads();
    expect(rows).toHaveLength(downloadsBefore + 1);
    expect(rows.at(-1)).toMatchObject({ userId: null, licenceId, platform: 'linux' });
    const after = await audit();
    const entry = after.find((row) => !before.some((old) => old.id === row.id))!;
    expect(entry).toMatchObject({
      action: 'downloadArtifact',
      actorKind: 'anonymous',
      actorId: null,
      actorEmail: null,
      actorName: null,
    });
    expect(JSON.parse(entry.data)).toMatchObject({
      anonymousDownload: true,
      productName: 'Viz',
      productVersion: '1.10.0',
      productPlatform: 'linux',
    });
  });

  it('refuses a tampered secret, another product, a hidden version and an unknown one alike (404)', async () => {
    const tampered = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    const urls = [
      secretDownloadPath('linux', 'viz', '1.9.0', tampered),
      secretDownloadPath('linux', 'viz', '1.9.0', secret.toUpperCase()),
      secretDownloadPath('linux', 'other', 'latest', secret),
      secretDownloadPath('linux', 'viz', '2.0.0-beta.1', secret),
      secretDownloadPath('linux', 'viz', '1.12.0', secret),
      secretDownloadPath('linux', 'viz', '9.9.9', secret),
      secretDownloadPath('windows', 'viz', '1.9.0', secret),
    ];
    const bodies = new Set<string>();
    for (const url of urls) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      bodies.add(response.body);
    }
    expect(bodies.size).toBe(1);
  });

  it('stops working once the secret is rotated', async () => {
    const { ctx } = t.app;
    const buyer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, buyer.id, 'other');
    await createVersion(ctx.db, 'other', { semVer: '0.1.0' });
    await createVersionWithFiles(ctx, 'other', { semVer: '0.2.0', files: { generic: { bytes: files.old } } });
    const old = (await findLicence(ctx.db, licence.id))!.downloadSecret;
    expect((await get(secretDownloadPath('generic', 'other', 'latest', old))).statusCode).toBe(200);
    const admin = (await signedIn(t.app, 'admin')).cookie;
    const rotated = await request(t.app, admin, { method: 'POST', url: `/api/licenses/${licence.id}/secret` });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().downloadSecret as string;
    expect(fresh).not.toBe(old);
    expect((await get(secretDownloadPath('generic', 'other', 'latest', old))).statusCode).toBe(404);
    expect((await get(secretDownloadPath('generic', 'other', 'latest', fresh))).statusCode).toBe(200);
  });

  it('refuses an expired licence with 403 licence_expired', async () => {
    const { ctx } = t.app;
    const buyer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, buyer.id, 'viz', {
      startDate: '2020-01-01',
      endDate: addDays(utcToday(), -31),
    });
    const expired = (await findLicence(ctx.db, licence.id))!.downloadSecret;
    const response = await get(secretDownloadPath('linux', 'viz', 'latest', expired));
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('licence_expired');
  });

  it('refuses traversal attempts, unknown platforms and a missing secret with 4xx, never a file', async () => {
    const query = `?secret=${encodeURIComponent(secret)}`;
    const attempts = [
      `/api/get/linux/viz/..%2F..%2F..%2Fetc%2Fpasswd/${query}`,
      `/api/get/linux/viz/%2e%2e/${query}`,
      `/api/get/linux/viz/..%2f1.9.0/${query}`,
      `/api/get/linux/..%2Fviz/1.9.0/${query}`,
      `/api/get/linux/viz/1.9.0%2F..%2F..%2Fpasswd/${query}`,
      `/api/get/linux/viz/../../../etc/passwd${query}`,
      `/api/get/..%2F..%2Fetc/viz/1.9.0/${query}`,
      `/api/get/solaris/viz/1.9.0/${query}`,
      `/api/get/linux/viz/1.9.0/`,
      `/api/get/linux/viz/1.9.0/?secret=`,
    ];
    for (const url of attempts) {
      const response = await get(url);
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.headers['content-disposition'], url).toBeUndefined();
    }
  });
});

describe('wrong secrets', () => {
  it('are limited per address (429), right ones are not counted', async () => {
    const limited = await createTestApp({ RATE_LIMIT_DOWNLOAD_SECRET_PER_MINUTE: '3' });
    try {
      const { ctx } = limited.app;
      await createProduct(ctx.db, { key: 'limited' });
      const buyer = await createCustomer(ctx.db);
      const licence = await createLicence(ctx.db, buyer.id, 'limited');
      await createVersionWithFiles(ctx, 'limited', { semVer: '1.0.0', files: { linux: { bytes: files.old } } });
      const good = (await findLicence(ctx.db, licence.id))!.downloadSecret;
      const call = (value: string, ip = '10.0.0.1') =>
        limited.app.inject({
          method: 'GET',
          url: secretDownloadPath('linux', 'limited', 'latest', value),
          remoteAddress: ip,
        });
      for (let i = 0; i < 5; i++) expect((await call(good)).statusCode).toBe(200);
      for (let i = 0; i < 3; i++) expect((await call(`wrong-${i}`)).statusCode).toBe(404);
      const refused = await call('wrong-3');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // the address is held back, whatever it sends now; another address is not
      expect((await call(good)).statusCode).toBe(429);
      expect((await call(good, '10.0.0.2')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
