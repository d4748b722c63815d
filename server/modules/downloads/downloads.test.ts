import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LEVELS, type AccessLevel, VERSION_TYPES, type VersionType } from '../../../common/domain';
import { addDays, utcToday } from '../../../common/licence-status';
import {
  addMembership,
  createCustomer,
  createLicence,
  createProduct,
  createVersion,
  createUser,
  createVersionWithFiles,
  signedIn,
} from '../../test/factories';
import { makeJobsDue } from '../../test/jobs';
import { DOWNLOAD_DIGEST_JOB } from '../notifications/digest';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { updateFlags } from '../notification-settings/repo';
import { DOWNLOAD_MESSAGE, FIRST_DOWNLOAD_MESSAGE } from './service';
import { withText } from '../../test/outbox';

/**
 * GET /api/download/{platform}: who may download what (access level x version type, unpublished,
 * expired licences), how the file is answered (Range, ETag, Content-Disposition) and what a download
 * records. The secret URL has its own file (secret-url.test.ts).
 */
let t: TestApp;
let customer: { id: number };
let admin: string;
let contact: string;
/** a customer with a licence of `product` per access level (one licence per customer and product) */
const byLevel = {} as Record<AccessLevel, { customerId: number; licenceId: number }>;
const versionOfType = {} as Record<VersionType, number>;
const bytes = crypto.randomBytes(64 * 1024 + 7);
let file: { versionId: number; artifactId: number; sha256: string };
const today = utcToday();

beforeAll(async () => {
  t = await createTestApp();
  const { ctx } = t.app;
  const product = await createProduct(ctx.db, { key: 'graph-server', name: 'Graph Server' });
  for (const level of ACCESS_LEVELS) {
    const { id } = await createCustomer(ctx.db);
    byLevel[level] = {
      customerId: id,
      licenceId: (await createLicence(ctx.db, id, product.key, { accessLevel: level })).id,
    };
  }
  for (const type of VERSION_TYPES) {
    versionOfType[type] = (await createVersion(ctx.db, product.key, { type, platforms: ['linux'] })).id;
  }
  customer = await createCustomer(ctx.db, { name: 'Downloader' });
  await createLicence(ctx.db, customer.id, product.key);
  const version = await createVersionWithFiles(ctx, product.key, {
    semVer: '2.0.0',
    files: { linux: { bytes, fileName: 'graph-server-2.0.0.tar.gz' }, windows: { bytes, fileName: 'Données été.zip' } },
  });
  const linux = version.artifacts.linux!;
  file = { versionId: version.id, artifactId: linux.id, sha256: linux.sha256 };
  admin = (await signedIn(t.app, 'admin')).cookie;
  contact = (await signedIn(t.app, 'client', { id: customer.id, role: 'technicalContact' })).cookie;
});
afterAll(async () => t?.close());

const get = (cookie: string | null, url: string, headers: Record<string, string> = {}) =>
  request(t.app, cookie, { method: 'GET', url, headers });
const downloadUrl = (customerId: number, versionId: number, platform = 'linux', check = false) =>
  `/api/download/${platform}?customerId=${customerId}&versionId=${versionId}${check ? '&check=1' : ''}`;

const downloadsOf = (artifactId: number) =>
  t.app.ctx.db.selectFrom('downloads').selectAll().where('artifactId', '=', artifactId).orderBy('id').execute();

/** The records are written beside the transfer: wait for those under way, then read. */
async function settled<T>(read: () => Promise<T[]>): Promise<T[]> {
  await t.app.ctx.jobs.drain();
  return read();
}

describe('who may download what', () => {
  it('gates version types by the licence access level (decisions.md)', async () => {
    const seen: Record<string, string[]> = {};
    for (const level of ACCESS_LEVELS) {
      seen[level] = [];
      for (const type of VERSION_TYPES) {
        const response = await get(admin, downloadUrl(byLevel[level].customerId, versionOfType[type], 'linux', true));
        expect([200, 404]).toContain(response.statusCode);
        if (response.statusCode === 200) {
          expect(response.json()).toEqual({ ok: true });
          seen[level].push(type);
        }
      }
    }
    expect(seen).toEqual({
      stable: ['eol', 'maintenance', 'stable'],
      beta: ['eol', 'maintenance', 'stable', 'beta'],
      alpha: ['eol', 'maintenance', 'stable', 'beta', 'alpha'],
    });
  });

  it('hides unpublished versions, other products, missing platforms and unknown versions alike (404)', async () => {
    const { ctx } = t.app;
    const unpublished = await createVersionWithFiles(ctx, 'graph-server', {
      published: false,
      files: { linux: { bytes } },
    });
    const other = await createProduct(ctx.db);
    const otherVersion = await createVersion(ctx.db, other.key, { platforms: ['linux'] });
    const alpha = byLevel.alpha.customerId;
    const refusals = [
      downloadUrl(alpha, unpublished.id),
      downloadUrl(alpha, unpublished.id, 'linux', true),
      downloadUrl(alpha, otherVersion.id, 'linux', true),
      downloadUrl(alpha, versionOfType.stable, 'osx', true),
      downloadUrl(alpha, 999_999, 'linux', true),
    ];
    const bodies = new Set<string>();
    for (const url of refusals) {
      const response = await get(admin, url);
      expect(response.statusCode, url).toBe(404);
      bodies.add(response.body);
    }
    expect(bodies.size, 'every refusal says the same').toBe(1);
  });

  it('refuses an unknown platform or a bad id with 400', async () => {
    expect((await get(admin, downloadUrl(customer.id, file.versionId, 'solaris', true))).statusCode).toBe(400);
    expect((await get(admin, downloadUrl(customer.id, file.versionId, '..%2F..%2Fetc', true))).statusCode).toBe(400);
    expect((await get(admin, `/api/download/linux?customerId=${customer.id}&versionId=abc`)).statusCode).toBe(400);
  });

  it('allows a licence in its grace period and refuses one past it (403 licence_expired)', async () => {
    const { ctx } = t.app;
    const product = await createProduct(ctx.db);
    const version = await createVersion(ctx.db, product.key, { platforms: ['linux'] });
    const graced = await createCustomer(ctx.db);
    await createLicence(ctx.db, graced.id, product.key, { endDate: addDays(today, -10) });
    const expired = await createCustomer(ctx.db);
    await createLicence(ctx.db, expired.id, product.key, { startDate: '2020-01-01', endDate: addDays(today, -31) });
    expect((await get(admin, downloadUrl(graced.id, version.id, 'linux', true))).statusCode).toBe(200);
    const refused = await get(admin, downloadUrl(expired.id, version.id, 'linux', true));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({
      code: 'licence_expired',
      message: 'Your license is expired, please contact your account manager',
    });
  });

  it('answers a member without the download capability 403, an outsider 404, nobody signed in 401', async () => {
    const endUser = (await signedIn(t.app, 'client', { id: customer.id, role: 'endUser' })).cookie;
    const outsider = (await signedIn(t.app, 'client', { id: byLevel.stable.customerId, role: 'technicalContact' }))
      .cookie;
    const url = downloadUrl(customer.id, file.versionId, 'linux', true);
    expect((await get(endUser, url)).statusCode).toBe(403);
    expect((await get(outsider, url)).statusCode).toBe(404);
    expect((await get(null, url)).statusCode).toBe(401);
    expect((await get(contact, url)).statusCode).toBe(200);
  });
});

describe('the file', () => {
  const url = () => downloadUrl(customer.id, file.versionId);

  it('is the stored bytes, uncompressed, with its length, validators and name', async () => {
    const response = await get(contact, url(), { 'accept-encoding': 'gzip, br' });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(bytes)).toBe(true);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers.etag).toBe(`"${file.sha256}"`);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-disposition']).toBe('attachment; filename="graph-server-2.0.0.tar.gz"');
    expect(response.headers['cache-control']).toBe('private, no-cache');
  });

  it('names a non-ASCII file per RFC 6266 (an ASCII fallback and filename*)', async () => {
    const response = await get(contact, downloadUrl(customer.id, file.versionId, 'windows'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Donnees ete.zip"; filename*=UTF-8''Donn%C3%A9es%20%C3%A9t%C3%A9.zip`,
    );
  });

  it('answers one byte range with 206 and Content-Range, a suffix too', async () => {
    const part = await get(contact, url(), { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);

    const open = await get(contact, url(), { range: `bytes=${bytes.length - 10}-` });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);

    const suffix = await get(contact, url(), { range: 'bytes=-5' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${bytes.length - 5}-${bytes.length - 1}/${bytes.length}`);
    expect(suffix.rawPayload.equals(bytes.subarray(bytes.length - 5))).toBe(true);
  });

  it('answers a range past the end with 416 and the size', async () => {
    const response = await get(contact, url(), { range: `bytes=${bytes.length}-` });
    expect(response.statusCode).toBe(416);
    expect(response.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(response.json().error.code).toBe('range_not_satisfiable');
  });

  it('answers several ranges, or a malformed one, with the whole file', async () => {
    for (const range of ['bytes=0-9,20-29', 'lines=1-2', 'bytes=abc']) {
      const response = await get(contact, url(), { range });
      expect(response.statusCode, range).toBe(200);
      expect(response.rawPayload.length, range).toBe(bytes.length);
    }
  });

  it('honours If-Range: the range while the ETag matches, the whole file once it differs', async () => {
    const same = await get(contact, url(), { range: 'bytes=0-9', 'if-range': `"${file.sha256}"` });
    expect(same.statusCode).toBe(206);
    const changed = await get(contact, url(), { range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.length).toBe(bytes.length);
  });

  it('answers 304 without a body to a matching If-None-Match', async () => {
    const response = await get(contact, url(), { 'if-none-match': `W/"x", "${file.sha256}"` });
    expect(response.statusCode).toBe(304);
    expect(response.rawPayload.length).toBe(0);
    expect(response.headers.etag).toBe(`"${file.sha256}"`);
    expect((await get(contact, url(), { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await request(t.app, contact, { method: 'HEAD', url: url() });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String(bytes.length));
    expect(response.rawPayload.length).toBe(0);
  });
});

describe('records', () => {
  it('records a download (row, audit entry, latest download) but not checks, 304s, HEAD or resumed ranges', async () => {
    const { ctx } = t.app;
    const product = await createProduct(ctx.db, { name: 'Recorded Product' });
    const buyer = await createCustomer(ctx.db);
    const licence = await createLicence(ctx.db, buyer.id, product.key);
    const version = await createVersionWithFiles(ctx, product.key, { semVer: '3.1.4', files: { osx: { bytes } } });
    const artifact = version.artifacts.osx!;
    const member = await signedIn(t.app, 'client', { id: buyer.id, role: 'businessOwner' });
    const url = downloadUrl(buyer.id, version.id, 'osx');

    expect((await get(member.cookie, `${url}&check=1`)).statusCode).toBe(200);
    expect((await get(member.cookie, url, { 'if-none-match': `"${artifact.sha256}"` })).statusCode).toBe(304);
    expect((await request(t.app, member.cookie, { method: 'HEAD', url })).statusCode).toBe(200);
    expect((await get(member.cookie, url, { range: 'bytes=500-' })).statusCode).toBe(206);
    expect((await get(member.cookie, url)).statusCode).toBe(200);
    expect((await get(member.cookie, url, { range: 'bytes=0-99' })).statusCode).toBe(206);

    const rows = await settled(() => downloadsOf(artifact.id));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      licenceId: licence.id,
      versionId: version.id,
      artifactId: artifact.id,
      userId: member.id,
      platform: 'osx',
      ip: '127.0.0.1',
    });

    const entries = await ctx.db
      .selectFrom('auditLog')
      .selectAll()
      .where('customerId', '=', buyer.id)
      .where('action', '=', 'downloadArtifact')
      .execute();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ actorKind: 'user', actorId: member.id, actorEmail: member.email });
    expect(JSON.parse(entries[0].data)).toMatchObject({
      productName: 'Recorded Product',
      productVersion: '3.1.4',
      productPlatform: 'osx',
    });
    expect(JSON.parse(entries[0].data).anonymousDownload).toBeUndefined();

    const logs = await get(member.cookie, `/api/customers/${buyer.id}/logs?action=downloadArtifact`);
    expect(logs.json().data[0]).toMatchObject({ anonymousDownload: false, productPlatform: 'osx' });

    const shown = await get(admin, `/api/licenses/${licence.id}`);
    // the records carry the time each was served, whichever of their jobs ran first
    expect(shown.json().latestDownload).toBe(rows.map((row) => row.createdAt).sort()[1]);
  });

  it('notifies the members who asked: every download, or the first of the product', async () => {
    const { ctx } = t.app;
    const product = await createProduct(ctx.db, { name: 'Notified Product' });
    const buyer = await createCustomer(ctx.db, { name: 'Notified Buyer' });
    await createLicence(ctx.db, buyer.id, product.key);
    const version = await createVersionWithFiles(ctx, product.key, { semVer: '5.0.0', files: { linux: { bytes } } });
    const member = async (flags: { notifyProductDownload: boolean; notifyFirstProductDownload: boolean }) => {
      const user = await createUser(ctx.db, { type: 'client' });
      const membership = await addMembership(ctx.db, user.id, buyer.id, 'technicalContact');
      await updateFlags(ctx.db, membership.id, flags);
      return user.id;
    };
    const everyDownload = await member({ notifyProductDownload: true, notifyFirstProductDownload: false });
    const firstOnly = await member({ notifyProductDownload: false, notifyFirstProductDownload: true });
    const neither = await member({ notifyProductDownload: false, notifyFirstProductDownload: false });
    const notificationsOf = (userId: number) =>
      ctx.db.selectFrom('notifications').selectAll().where('userId', '=', userId).orderBy('id').execute();

    for (let i = 0; i < 2; i++) {
      expect((await get(admin, downloadUrl(buyer.id, version.id))).statusCode).toBe(200);
      await ctx.jobs.drain();
    }
    // the first download is told at once; every download waits for the customer's digest window
    expect((await notificationsOf(firstOnly)).map((row) => row.messageKey)).toEqual([FIRST_DOWNLOAD_MESSAGE]);
    expect(await notificationsOf(everyDownload)).toEqual([]);
    await makeJobsDue(ctx.db, DOWNLOAD_DIGEST_JOB);
    await ctx.jobs.drain();
    const every = await notificationsOf(everyDownload);
    // one entry per version and platform of the window, one mail listing both downloads
    expect(every.map((row) => row.messageKey)).toEqual([DOWNLOAD_MESSAGE]);
    expect(JSON.parse(every[0].params)).toEqual({
      customerId: buyer.id,
      productKey: product.key,
      productName: 'Notified Product',
      semVer: '5.0.0',
      platform: 'linux',
    });
    const digests = await ctx.db
      .selectFrom('mailOutbox')
      .innerJoin('users', 'users.email', 'mailOutbox.toAddress')
      .select(['users.id', 'mailOutbox.template', 'mailOutbox.subject', 'mailOutbox.bodySealed'])
      .where('mailOutbox.template', '=', 'productDownloadDigest')
      .where('users.id', 'in', [everyDownload, firstOnly, neither])
      .execute()
      .then((rows) => rows.map(withText(ctx)));
    expect(digests.map((mail) => [mail.id, mail.subject])).toEqual([[everyDownload, '2 downloads for Notified Buyer']]);
    expect(digests[0].textBody.match(/Notified Product 5\.0\.0 \(Linux\)/g)).toHaveLength(2);
    // nothing more: the next digest waits for new downloads
    await makeJobsDue(ctx.db, DOWNLOAD_DIGEST_JOB);
    await ctx.jobs.drain();
    expect(await notificationsOf(everyDownload)).toHaveLength(1);
    expect((await notificationsOf(firstOnly)).map((row) => row.messageKey)).toEqual([FIRST_DOWNLOAD_MESSAGE]);
    expect(await notificationsOf(neither)).toEqual([]);
  });

  it('still serves the file when the record cannot be written, and says so in the log', async () => {
    const { ctx } = t.app;
    const product = await createProduct(ctx.db);
    const buyer = await createCustomer(ctx.db);
    await createLicence(ctx.db, buyer.id, product.key);
    const version = await createVersionWithFiles(ctx, product.key, { files: { generic: { bytes } } });
    const errors: unknown[] = [];
    const original = ctx.log.error.bind(ctx.log);
    ctx.log.error = ((...args: unknown[]) => {
      errors.push(args);
    }) as typeof ctx.log.error;
    const artifact = version.artifacts.generic!;
    const db = ctx.db;
    ctx.db = new Proxy(db, {
      // every query works except the record's transaction
      get(target, property) {
        if (property === 'transaction') {
          return () => ({ execute: async () => Promise.reject(new Error('database unavailable')) });
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    try {
      const response = await get(admin, downloadUrl(buyer.id, version.id, 'generic'));
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(bytes)).toBe(true);
      await ctx.jobs.drain();
    } finally {
      ctx.db = db;
      ctx.log.error = original;
    }
    expect(errors).toHaveLength(1);
    expect(await downloadsOf(artifact.id)).toHaveLength(0);
  });
});

describe('where the bytes come from', () => {
  it('redirects to the store when it gives a presigned URL (S3), and records the download', async () => {
    const { ctx } = t.app;
    const product = await createProduct(ctx.db);
    const buyer = await createCustomer(ctx.db);
    await createLicence(ctx.db, buyer.id, product.key);
    const version = await createVersionWithFiles(ctx, product.key, { files: { docker: { bytes } } });
    const storage = ctx.storage;
    ctx.storage = { ...storage, presignedUrl: async (key) => `https://bucket.example/${key}?X-Amz-Signature=abc` };
    try {
      const response = await get(admin, downloadUrl(buyer.id, version.id, 'docker'));
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(
        `https://bucket.example/${version.artifacts.docker!.storageKey}?X-Amz-Signature=abc`,
      );
      expect(response.headers['cache-control']).toBe('no-store');
    } finally {
      ctx.storage = storage;
    }
    expect(await settled(() => downloadsOf(version.artifacts.docker!.id))).toHaveLength(1);
  });

  it('hands the file to nginx with X-Accel-Redirect when configured', async () => {
    const accel = await createTestApp({ DOWNLOAD_ACCEL_REDIRECT: '/protected-artifacts/' });
    try {
      const { ctx } = accel.app;
      const product = await createProduct(ctx.db, { key: 'accel-product' });
      const buyer = await createCustomer(ctx.db);
      await createLicence(ctx.db, buyer.id, product.key);
      const version = await createVersionWithFiles(ctx, product.key, { files: { npm: { bytes, fileName: 'a.tgz' } } });
      const staff = (await signedIn(accel.app, 'admin')).cookie;
      const response = await request(accel.app, staff, {
        method: 'GET',
        url: downloadUrl(buyer.id, version.id, 'npm'),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-accel-redirect']).toBe(`/protected-artifacts/${version.artifacts.npm!.storageKey}`);
      expect(response.headers['content-disposition']).toBe('attachment; filename="a.tgz"');
      expect(response.headers['content-type']).toBe('application/gzip');
      expect(response.rawPayload.length).toBe(0);
      await ctx.jobs.drain();
      const rows = await ctx.db
        .selectFrom('downloads')
        .selectAll()
        .where('artifactId', '=', version.artifacts.npm!.id)
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      await accel.close();
    }
  });
});
