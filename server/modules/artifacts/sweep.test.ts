import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createProduct, createVersionWithFiles } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { filesUnder } from '../../test/artifacts';
import type { StoredFileKind } from '../../stored-file-kinds';
import { SWEEP_GRACE_MS, sweepStorage } from './sweep';

/**
 * What a process killed mid-upload leaves in the local store (a `.partial/` file, a file whose row
 * was never written) is swept at start and every hour; what is in use or under way stays.
 */
let t: TestApp;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-sweep-'));
const longAgo = new Date(Date.now() - SWEEP_GRACE_MS - 60_000);

function writeFile(relative: string, modifiedAt?: Date) {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'bytes');
  if (modifiedAt) fs.utimesSync(file, modifiedAt, modifiedAt);
}

beforeAll(async () => {
  t = await createTestApp({ ARTIFACTS_DIR: dir });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the storage sweep', () => {
  it('removes abandoned uploads and files without a row, and nothing else', async () => {
    const { key } = await createProduct(t.app.ctx.db);
    const version = await createVersionWithFiles(t.app.ctx, key, { files: { linux: { bytes: Buffer.from('kept') } } });
    const kept = version.artifacts.linux!.storageKey;
    fs.utimesSync(path.join(dir, kept), longAgo, longAgo);

    const orphan = `${key}/9.9.9/windows/${crypto.randomUUID()}`;
    const freshOrphan = `${key}/9.9.9/osx/${crypto.randomUUID()}`;
    writeFile(orphan, longAgo);
    writeFile(freshOrphan);
    writeFile('.partial/abandoned.part', longAgo);
    writeFile('.partial/under-way.part');
    writeFile('operator/notes.txt', longAgo);

    expect(await sweepStorage(t.app.ctx)).toEqual({ abandonedUploads: 1, orphans: 1 });
    expect(filesUnder(dir)).toEqual(
      [kept, freshOrphan, '.partial/under-way.part', 'operator/notes.txt'].map((f) => path.normalize(f)).sort(),
    );

    // an hour on, the fresh leftovers are abandoned too; the file in use still stays
    const later = new Date(Date.now() + SWEEP_GRACE_MS + 60_000);
    expect(await sweepStorage(t.app.ctx, later)).toEqual({ abandonedUploads: 1, orphans: 1 });
    expect(filesUnder(dir)).toEqual([kept, 'operator/notes.txt'].map((f) => path.normalize(f)).sort());
  });

  it('removes only files of a declared kind that its owner no longer refers to, never a key of no kind', async () => {
    // a kind as a module would declare it, its rows standing in a set here
    const referred = new Set<string>();
    const bundles: StoredFileKind = {
      name: 'bundles',
      keyPattern: /^bundles\/[0-9]+\/[0-9a-f-]{36}$/,
      example: `bundles/7/${crypto.randomUUID()}`,
      inUse: async (_db, keys) => new Set(keys.filter((key) => referred.has(key))),
    };
    const inUse = `bundles/7/${crypto.randomUUID()}`;
    const leftOver = `bundles/7/${crypto.randomUUID()}`;
    referred.add(inUse);
    // shaped as the portal's keys were once recognised (four parts, a UUID last), but of no declared kind
    const undeclared = `reports/2026/12/${crypto.randomUUID()}`;
    for (const key of [inUse, leftOver, undeclared]) writeFile(key, longAgo);

    expect(await sweepStorage(t.app.ctx, new Date(), [bundles])).toEqual({ abandonedUploads: 0, orphans: 1 });
    expect(fs.existsSync(path.join(dir, leftOver))).toBe(false);
    expect(fs.existsSync(path.join(dir, inUse))).toBe(true);
    expect(fs.existsSync(path.join(dir, undeclared))).toBe(true);

    // with the portal's own kinds, which the bundles are not, neither is touched
    expect((await sweepStorage(t.app.ctx)).orphans).toBe(0);
    expect(fs.existsSync(path.join(dir, inUse))).toBe(true);
    expect(fs.existsSync(path.join(dir, undeclared))).toBe(true);
  });

  it('runs when the portal starts', async () => {
    const orphan = `left/1.0.0/linux/${crypto.randomUUID()}`;
    writeFile(orphan, longAgo);
    writeFile('.partial/killed.part', longAgo);
    const app = await buildApp(t.config, { database: t.database });
    try {
      await app.ready();
      for (let i = 0; i < 100 && fs.existsSync(path.join(dir, orphan)); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(fs.existsSync(path.join(dir, orphan))).toBe(false);
      expect(fs.existsSync(path.join(dir, '.partial/killed.part'))).toBe(false);
    } finally {
      await app.close();
    }
  });
});
