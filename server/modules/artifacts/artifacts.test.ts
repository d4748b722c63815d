import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProductToken, createUnpublishedVersion, filesUnder } from '../../test/artifacts';
import { createProduct, createVersion, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

const MAX_BYTES = 4 * 1024 * 1024;

let t: TestApp;
let dir: string;
let base: string;
let manager: string;
let productKey: string;
let token: string;
let otherToken: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-artifacts-'));
  t = await createTestApp({ ARTIFACTS_DIR: dir, ARTIFACT_MAX_BYTES: String(MAX_BYTES) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  manager = (await signedIn(t.app, 'productManager')).cookie;
  productKey = (await createProduct(t.app.ctx.db, { key: `tool-${Date.now().toString(36)}` })).key;
  const other = (await createProduct(t.app.ctx.db)).key;
  const make = async (key: string) =>
    (
      await request(t.app, manager, { method: 'POST', url: `/api/products/${key}/tokens`, payload: { name: 'CI' } })
    ).json().token as string;
  token = await make(productKey);
  otherToken = await make(other);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
const artifactsOf = (versionId: number) =>
  t.app.ctx.db.selectFrom('artifacts').selectAll().where('versionId', '=', versionId).execute();

function put(
  versionId: number,
  platform: string,
  payload: Buffer | string,
  headers: Record<string, string> = {},
  query = '',
) {
  return t.app.inject({
    method: 'PUT',
    url: `/api/versions/${versionId}/artifacts/${platform}${query}`,
    payload,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });
}

/** Waits until `check` holds (the server finishes a cut request after the client has gone). */
async function eventually(check: () => Promise<boolean> | boolean, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('uploading an artifact', () => {
  it('stores the file streamed with a product token, with its size and sha256', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const content = crypto.randomBytes(300_000);
    const response = await put(versionId, 'linux', content, bearer(token), '?fileName=tool-linux.tar.gz');
    expect(response.statusCode).toBe(200);
    const artifact = response.json();
    expect(artifact).toMatchObject({
      platform: 'linux',
      fileName: 'tool-linux.tar.gz',
      size: content.length,
      sha256: sha256(content),
    });

    const [row] = await artifactsOf(versionId);
    expect(row.id).toBe(artifact.id);
    const stream = await t.app.ctx.storage.read(row.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);

    const used = await t.app.ctx.db
      .selectFrom('productTokens')
      .select('lastUsedAt')
      .where('productKey', '=', productKey)
      .executeTakeFirstOrThrow();
    expect(used.lastUsedAt).not.toBeNull();
  });

  it("replaces the platform's artifact with a new row and removes the previous file", async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const first = (await put(versionId, 'windows', 'first', bearer(token))).json();
    const [before] = await artifactsOf(versionId);
    const second = await request(t.app, manager, {
      method: 'PUT',
      url: `/api/versions/${versionId}/artifacts/windows`,
      payload: 'second version',
      headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="setup.zip"' },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ fileName: 'setup.zip', size: 14 });
    expect(second.json().id).not.toBe(first.id);
    const rows = await artifactsOf(versionId);
    expect(rows).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, before.storageKey))).toBe(false);
    expect(fs.existsSync(path.join(dir, rows[0].storageKey))).toBe(true);
  });

  it('names the file after the product, version and platform by default', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey, '2.0.0-beta.1+build.7');
    const response = await put(versionId, 'npm', 'tarball', bearer(token));
    expect(response.json().fileName).toBe(`${productKey}-2.0.0-beta.1+build.7-npm.tgz`);
    // even a JSON file is bytes here, not a body to parse
    const json = await put(versionId, 'generic', '{"not": "parsed"}', {
      ...bearer(token),
      'content-type': 'application/json',
    });
    expect(json.statusCode).toBe(200);
    expect(json.json().size).toBe(17);
  });

  it('refuses file names with a path, too long, or empty', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    for (const query of [
      '?fileName=../etc/passwd',
      '?fileName=a%5Cb.zip',
      `?fileName=${'a'.repeat(256)}`,
      '?fileName=%20',
    ]) {
      const response = await put(versionId, 'linux', 'x', bearer(token), query);
      expect(response.statusCode, query).toBe(400);
    }
    const header = await put(versionId, 'linux', 'x', {
      ...bearer(token),
      'content-disposition': 'attachment; filename="dir/x.zip"',
    });
    expect(header.statusCode).toBe(400);
    expect(await artifactsOf(versionId)).toEqual([]);
  });

  it('refuses an unknown platform, an unknown version and an empty body', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    expect((await put(versionId, 'beos', 'x', bearer(token))).statusCode).toBe(400);
    expect((await put(999_999, 'linux', 'x', bearer(token))).statusCode).toBe(404);
    expect(
      (await request(t.app, manager, { method: 'PUT', url: '/api/versions/999999/artifacts/linux', payload: 'x' }))
        .statusCode,
    ).toBe(404);
    expect((await put(versionId, 'linux', '', bearer(token))).statusCode).toBe(400);
  });

  it("refuses to change a published version's artifacts, and keeps nothing of the attempt", async () => {
    const { id: versionId } = await createVersion(t.app.ctx.db, productKey, { platforms: ['linux'] });
    const before = filesUnder(dir);
    const response = await put(versionId, 'linux', 'new bytes', bearer(token));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('version_published');
    const removal = await request(t.app, manager, {
      method: 'DELETE',
      url: `/api/versions/${versionId}/artifacts/linux`,
    });
    expect(removal.statusCode).toBe(409);
    expect(await artifactsOf(versionId)).toHaveLength(1);
    expect(filesUnder(dir)).toEqual(before);
  });

  it('refuses a token of another product, a wrong or revoked token', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const other = await put(versionId, 'linux', 'x', bearer(otherToken));
    expect(other.statusCode).toBe(403);
    const wrong = await put(versionId, 'linux', 'x', bearer(`pt_${'A'.repeat(43)}`));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
    const revocable = (
      await request(t.app, manager, {
        method: 'POST',
        url: `/api/products/${productKey}/tokens`,
        payload: { name: 'old' },
      })
    ).json();
    expect((await put(versionId, 'osx', 'x', bearer(revocable.token))).statusCode).toBe(200);
    await request(t.app, manager, { method: 'DELETE', url: `/api/products/${productKey}/tokens/${revocable.id}` });
    expect((await put(versionId, 'osx', 'y', bearer(revocable.token))).statusCode).toBe(401);
    expect((await artifactsOf(versionId)).map((row) => row.platform)).toEqual(['osx']);
  });

  it('is refused to a signed-in user without manageVersions', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const support = await signedIn(t.app, 'supportEngineer');
    const response = await request(t.app, support.cookie, {
      method: 'PUT',
      url: `/api/versions/${versionId}/artifacts/linux`,
      payload: 'x',
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('an upload too large or cut', () => {
  it('answers 413 from the Content-Length, before reading the body', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const before = filesUnder(dir);
    const answer = await rawPut(versionId, { 'content-length': String(MAX_BYTES + 1) }, (req) => req.write('x'));
    expect(answer.status).toBe(413);
    expect(answer.body).toContain('The file is too large: at most 4194304 bytes (4 MiB)');
    expect(await artifactsOf(versionId)).toEqual([]);
    expect(filesUnder(dir)).toEqual(before);
  });

  it('answers 413 when a body without a length passes the limit, and keeps nothing', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const before = filesUnder(dir);
    const answer = await rawPut(versionId, { 'transfer-encoding': 'chunked' }, (req) => {
      const chunk = Buffer.alloc(256 * 1024, 1);
      let sent = 0;
      const pump = () => {
        while (sent <= MAX_BYTES + chunk.length && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(answer.status).toBe(413);
    await eventually(async () => filesUnder(dir).join() === before.join(), 'the partial file to go');
    expect(await artifactsOf(versionId)).toEqual([]);
  });

  it('keeps nothing of an upload whose client goes away', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const before = filesUnder(dir);
    const req = http.request(`${base}/api/versions/${versionId}/artifacts/docker`, {
      method: 'PUT',
      headers: { ...bearer(token), 'content-length': String(3 * 1024 * 1024) },
    });
    req.on('error', () => {});
    req.write(Buffer.alloc(1024 * 1024, 2));
    // the server is writing the file: then the client vanishes
    await eventually(() => filesUnder(dir).some((file) => file.startsWith('.partial/')), 'the upload to start');
    req.destroy();
    await eventually(() => filesUnder(dir).join() === before.join(), 'the partial file to go');
    expect(await artifactsOf(versionId)).toEqual([]);
  });
});

/** A PUT over a real connection, for what app.inject cannot do (a body larger than announced, a cut). */
function rawPut(
  versionId: number,
  headers: Record<string, string>,
  send: (req: http.ClientRequest) => void,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/versions/${versionId}/artifacts/linux`, {
      method: 'PUT',
      headers: { ...bearer(token), ...headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    send(req);
  });
}

describe('a long upload', () => {
  it('is not cut by the body timeout of other routes', async () => {
    const slow = await createTestApp({ ARTIFACTS_DIR: dir, BODY_TIMEOUT_MS: '1000' });
    try {
      await slow.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (slow.app.server.address() as AddressInfo).port;
      const { token: slowToken } = await createProductToken(
        slow.app.ctx.db,
        (await createProduct(slow.app.ctx.db)).key,
      );
      const product = (await slow.app.ctx.db.selectFrom('productTokens').select('productKey').executeTakeFirstOrThrow())
        .productKey;
      const versionId = await createUnpublishedVersion(slow.app.ctx.db, product);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(`http://127.0.0.1:${port}/api/versions/${versionId}/artifacts/linux`, {
          method: 'PUT',
          headers: { ...bearer(slowToken), 'content-length': '3' },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        // three bytes over 1.5 s: longer than BODY_TIMEOUT_MS allows any other body
        req.write('a');
        setTimeout(() => req.write('b'), 750);
        setTimeout(() => req.end('c'), 1500);
      });
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body).size).toBe(3);
    } finally {
      await slow.close();
    }
  });
});

describe('curl -T', () => {
  it('uploads a file with a product token, as a release pipeline does', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const file = path.join(dir, '..', `portal-upload-${process.pid}-ü.tar.gz`);
    const content = crypto.randomBytes(1024 * 1024 + 123);
    fs.writeFileSync(file, content);
    try {
      const { stdout } = await promisify(execFile)('curl', [
        '--fail-with-body',
        '-sS',
        '-T',
        file,
        '-H',
        `Authorization: Bearer ${token}`,
        `${base}/api/versions/${versionId}/artifacts/linux?fileName=${encodeURIComponent(path.basename(file))}`,
      ]);
      const artifact = JSON.parse(stdout);
      expect(artifact).toMatchObject({ fileName: path.basename(file), size: content.length, sha256: sha256(content) });
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});

describe('removing an artifact', () => {
  it("removes an unpublished version's artifact and its file", async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    await put(versionId, 'osx', 'bytes', bearer(token));
    const [row] = await artifactsOf(versionId);
    // a product token uploads, it does not remove
    const byToken = await t.app.inject({
      method: 'DELETE',
      url: `/api/versions/${versionId}/artifacts/osx`,
      headers: bearer(token),
    });
    expect(byToken.statusCode).toBe(401);
    const response = await request(t.app, manager, {
      method: 'DELETE',
      url: `/api/versions/${versionId}/artifacts/osx`,
    });
    expect(response.statusCode).toBe(200);
    expect(await artifactsOf(versionId)).toEqual([]);
    expect(fs.existsSync(path.join(dir, row.storageKey))).toBe(false);
    const again = await request(t.app, manager, { method: 'DELETE', url: `/api/versions/${versionId}/artifacts/osx` });
    expect(again.statusCode).toBe(404);
  });
});
