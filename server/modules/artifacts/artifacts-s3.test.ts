import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUnpublishedVersion, filesUnder } from '../../test/artifacts';
import { secretDownloadPath } from '../../../common/api/catalogue';
import { createCustomer, createLicence, createProduct, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { startS3 } from '../../test/s3';
import { SWEEP_GRACE_MS, sweepStorage } from './sweep';

/** The upload route with S3-compatible storage (s3rver): the same guarantees as with the local folder. */

let s3: Awaited<ReturnType<typeof startS3>>;
let t: TestApp;
let base: string;
let token: string;
let productKey: string;

const MAX_BYTES = 12 * 1024 * 1024;
/** what s3rver keeps: objects and multipart parts, not its metadata files */
const kept = () => filesUnder(s3.directory).filter((file) => !file.endsWith('._S3rver_metadata.json'));

beforeAll(async () => {
  s3 = await startS3();
  t = await createTestApp({ ARTIFACT_MAX_BYTES: String(MAX_BYTES) }, { s3: s3.options });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const manager = (await signedIn(t.app, 'productManager')).cookie;
  productKey = (await createProduct(t.app.ctx.db)).key;
  token = (
    await request(t.app, manager, {
      method: 'POST',
      url: `/api/products/${productKey}/tokens`,
      payload: { name: 'CI' },
    })
  ).json().token;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function eventually(check: () => boolean, what: string) {
  for (let i = 0; i < 200; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('artifacts in S3-compatible storage', () => {
  it('streams an upload of several parts to the bucket', async () => {
    expect(t.app.ctx.storage.kind).toBe('s3');
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const content = crypto.randomBytes(10 * 1024 * 1024);
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/versions/${versionId}/artifacts/linux`,
      payload: content,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      size: content.length,
      sha256: crypto.createHash('sha256').update(content).digest('hex'),
    });
    const row = await t.app.ctx.db
      .selectFrom('artifacts')
      .select('storageKey')
      .where('versionId', '=', versionId)
      .executeTakeFirstOrThrow();
    const chunks: Buffer[] = [];
    for await (const chunk of await t.app.ctx.storage.read(row.storageKey)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
  });

  it('keeps nothing of an upload cut after parts were sent, and no row', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const before = kept();
    const req = http.request(`${base}/api/versions/${versionId}/artifacts/windows`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-length': String(MAX_BYTES) },
    });
    req.on('error', () => {});
    req.write(crypto.randomBytes(9 * 1024 * 1024));
    // a first 8 MiB part reached the bucket: then the client vanishes
    await eventually(() => kept().some((file) => file.includes('._S3rver_uploads/') && /\/1$/.test(file)), 'a part');
    req.destroy();
    await eventually(() => kept().join() === before.join(), 'the parts to go');
    const rows = await t.app.ctx.db.selectFrom('artifacts').select('id').where('versionId', '=', versionId).execute();
    expect(rows).toEqual([]);
  });

  it('serves an uploaded artifact from the bucket through a presigned URL once published', async () => {
    const { db } = t.app.ctx;
    const versionId = await createUnpublishedVersion(db, productKey, '3.0.0');
    const content = crypto.randomBytes(200_000);
    const upload = await t.app.inject({
      method: 'PUT',
      url: `/api/versions/${versionId}/artifacts/npm?fileName=tool-3.0.0.tgz`,
      payload: content,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    });
    expect(upload.statusCode).toBe(200);
    await db
      .updateTable('versions')
      .set({ published: 1, releaseDate: '2026-11-23' })
      .where('id', '=', versionId)
      .execute();
    const customer = await createCustomer(db);
    const licence = await createLicence(db, customer.id, productKey);
    const { downloadSecret } = await db
      .selectFrom('licences')
      .select('downloadSecret')
      .where('id', '=', licence.id)
      .executeTakeFirstOrThrow();

    const answer = await t.app.inject({
      method: 'GET',
      url: secretDownloadPath('npm', productKey, '3.0.0', downloadSecret),
    });
    expect(answer.statusCode).toBe(302);
    const location = answer.headers.location as string;
    expect(location.startsWith(s3.options.endpoint!)).toBe(true);
    expect(location).toMatch(/X-Amz-Expires=60\b/);
    // the store cannot add Repr-Digest to its answer: the redirect carries the file's (docs/decisions/080)
    const digest = crypto.createHash('sha256').update(content).digest('base64');
    expect(answer.headers['repr-digest']).toBe(`sha-256=:${digest}:`);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('filename="tool-3.0.0.tgz"');
    expect(Buffer.from(await file.arrayBuffer()).equals(content)).toBe(true);
  });

  it('sweeps objects the portal stored without a row, and leaves the others', async () => {
    const { storage } = t.app.ctx;
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const uploaded = await t.app.inject({
      method: 'PUT',
      url: `/api/versions/${versionId}/artifacts/linux`,
      payload: Buffer.from('in use'),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    });
    expect(uploaded.statusCode).toBe(200);
    const orphan = `${productKey}/0.0.1/linux/${crypto.randomUUID()}`;
    await storage.put(orphan, Readable.from([Buffer.from('no row')]), { maxBytes: 100 });
    await storage.put('operator/readme.txt', Readable.from([Buffer.from('not ours')]), { maxBytes: 100 });
    const keys = async () => {
      const all: string[] = [];
      for await (const object of storage.list()) all.push(object.key);
      return all;
    };
    expect(await keys()).toContain(orphan);

    // just written: within the grace an upload's row may still be on its way
    expect((await sweepStorage(t.app.ctx)).orphans).toBe(0);
    const later = new Date(Date.now() + SWEEP_GRACE_MS + 60_000);
    expect((await sweepStorage(t.app.ctx, later)).orphans).toBe(1);
    const left = await keys();
    expect(left).not.toContain(orphan);
    expect(left).toContain('operator/readme.txt');
    const rows = await t.app.ctx.db.selectFrom('artifacts').select('storageKey').execute();
    for (const { storageKey } of rows) expect(left).toContain(storageKey);
  });
});
