import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app';
import { createProductToken, createUnpublishedVersion, filesUnder } from '../../test/artifacts';
import { createProduct } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * An upload to a storage with no space left answers 507 `storage_full`, stores nothing and logs an
 * error line for the operator. The disk is a real one: a 1 MiB tmpfs mounted for the test (which needs
 * root, as the test machines run); a quota used up (EDQUOT) is the storage's own error, given by hand.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-full-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
  mounted = true;
} catch {
  // not allowed to mount here: the real disk's case is skipped, the quota's still runs
}

let t: TestApp;
let app: FastifyInstance;
const lines: string[] = [];
let productKey: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ ARTIFACTS_DIR: dir, ARTIFACT_MAX_BYTES: String(8 * 1024 * 1024) });
  app = await buildApp(
    { ...t.config, logLevel: 'info' },
    { database: t.database, startBackgroundWork: false, logStream: { write: (line) => lines.push(line) } },
  );
  await app.ready();
  productKey = (await createProduct(t.app.ctx.db)).key;
  token = (await createProductToken(t.app.ctx.db, productKey)).token;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  if (mounted) execFileSync('umount', [dir]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const upload = (versionId: number, content: Buffer) =>
  app.inject({
    method: 'PUT',
    url: `/api/versions/${versionId}/artifacts/linux?fileName=tool-linux.tar.gz`,
    payload: content,
    headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${token}` },
  });

const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
const artifactsOf = (versionId: number) =>
  t.app.ctx.db.selectFrom('artifacts').selectAll().where('versionId', '=', versionId).execute();

function expectStorageFull(response: Awaited<ReturnType<typeof upload>>) {
  expect(response.statusCode).toBe(507);
  expect(response.json()).toEqual({
    error: { code: 'storage_full', message: 'The artifact storage has no space left: the file was not stored' },
  });
}

describe('an upload to a storage with no space left', () => {
  it.skipIf(!mounted)('answers 507 on a full disk, stores nothing and logs the ENOSPC', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    lines.length = 0;
    const response = await upload(versionId, crypto.randomBytes(3 * 1024 * 1024));
    expectStorageFull(response);
    expect(response.headers.connection).toBe('close');
    expect(await artifactsOf(versionId)).toEqual([]);
    // the partial file is removed: the disk has its space back, and takes a small file again
    expect(filesUnder(dir)).toEqual([]);
    const errors = logged().filter((line) => line.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({
        msg: 'artifact storage has no space left: the upload was not stored',
        code: 'ENOSPC',
        storage: 'local',
        versionId,
        platform: 'linux',
      }),
    ]);
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain(dir);
    // the error line names no path and no file
    expect(JSON.stringify(errors)).not.toContain('tool-linux');
    const small = await upload(versionId, Buffer.from('fits'));
    expect(small.statusCode).toBe(200);
  });

  it('answers 507 when the quota is used up, and logs the EDQUOT', async () => {
    const versionId = await createUnpublishedVersion(t.app.ctx.db, productKey);
    const put = vi.spyOn(app.ctx.storage, 'put').mockImplementation(async (_key, body) => {
      // the storage reads a little, then its write is refused, as a quota's would be
      await new Promise<void>((resolve) => body.once('data', () => resolve()));
      body.destroy();
      throw Object.assign(new Error('EDQUOT: disk quota exceeded, write'), { code: 'EDQUOT', errno: -122 });
    });
    lines.length = 0;
    try {
      expectStorageFull(await upload(versionId, crypto.randomBytes(64 * 1024)));
    } finally {
      put.mockRestore();
    }
    expect(await artifactsOf(versionId)).toEqual([]);
    expect(logged().filter((line) => line.level === 50)).toEqual([
      expect.objectContaining({ code: 'EDQUOT', msg: 'artifact storage has no space left: the upload was not stored' }),
    ]);
  });
});
