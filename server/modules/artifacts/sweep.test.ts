import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createProduct, createVersionWithFiles } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { filesUnder } from '../../test/artifacts';
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
    const freshOrphan = `${key}/9.9.9/macos/${crypto.randomUUID()}`;
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
