import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDownloadPath } from '../../../common/api/catalogue';
import { LicenceFile, LicenceSigningKeyList } from '../../../common/api/licence-files';
import { buildApp } from '../../app';
import { type Config, loadConfig } from '../../config';
import { type DatabaseHandle, knownMigrations, openDatabase, undoLastMigration } from '../../db';
import {
  createCustomer,
  createCustomization,
  createLicence,
  createProduct,
  createVersionWithFiles,
  signedIn,
  TEST_PASSWORD,
} from '../../test/factories';
import { BASE_URL, createTestApp, request, sessionCookieOf, TEST_DIALECT, type TestApp } from '../../test/harness';
import { startS3 } from '../../test/s3';
import { scratchPostgres } from '../../test/scratch-postgres';
import { findLicence } from '../licences/repo';
import { createBackup } from './backup';
import { DATABASE_FILES, MANIFEST_FILE, type Manifest, sha256File } from './manifest';
import { allRows, appliedMigrations, listTables } from './repo';
import { restoreBackup } from './restore';

/**
 * A backup taken while the portal serves downloads, restored into a new database and artifact folder,
 * is the portal as it was: every table's rows, every artifact's bytes, the licence signing key (a
 * file signed before still verifies) and the users' passwords. Restore refuses what it must.
 */

const SESSION_SECRET = 'test-session-secret-that-is-long-enough-000';
const PRODUCT = 'graph-server';

let dir: string;
let source: TestApp;
let restored: TestApp | undefined;
const cleanups: (() => Promise<void>)[] = [];
let backupDir: string;
let manifest: Manifest;
let customerId: number;
let memberEmail: string;
let memberCookie: string;
let downloadUrl: string;
/** empty still after the refusals: the upgrade restores into it */
let untouched: { env: Record<string, string>; config: Config };
let licenceFileBefore: LicenceFile;
const progress: string[] = [];

/** An empty database and artifact folder to restore into, and the configuration that names them. */
async function freshTarget(
  name: string,
  overrides: Partial<Config> = {},
): Promise<{ env: Record<string, string>; config: Config }> {
  let databaseUrl = `sqlite:${path.join(dir, `${name}.db`)}`;
  if (TEST_DIALECT === 'postgres') {
    const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL as string, 'portal_restore');
    cleanups.push(scratch.drop);
    databaseUrl = scratch.url;
  }
  const env = { DATABASE_URL: databaseUrl, ARTIFACTS_DIR: path.join(dir, `${name}-artifacts`) };
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      BASE_URL,
      SESSION_SECRET,
      STATIC_DIR: './none',
      ...env,
    },
    overrides,
  );
  return { env, config };
}

/** Every table's rows, each as JSON, sorted: two databases compare table by table. */
async function rowsOf(handle: DatabaseHandle): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of await listTables(handle.db, handle.dialect)) {
    tables[table] = (await allRows(handle.db, table)).map((row) => JSON.stringify(row)).sort();
  }
  return tables;
}

/** The portal on a restored database, as a start would build it. */
async function appOn(config: Config): Promise<TestApp> {
  const database = openDatabase(config.databaseUrl);
  const app = await buildApp(config, { database, startBackgroundWork: false });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

async function rowsAt(databaseUrl: string) {
  const handle = openDatabase(databaseUrl);
  try {
    return await rowsOf(handle);
  } finally {
    await handle.close();
  }
}

/** The rows of `part` that `whole` lacks (counting repeats). */
function missingFrom(whole: string[], part: string[]): string[] {
  const left = new Map<string, number>();
  for (const row of whole) left.set(row, (left.get(row) ?? 0) + 1);
  return part.filter((row) => {
    const n = left.get(row) ?? 0;
    left.set(row, n - 1);
    return n <= 0;
  });
}

async function targetIsEmpty(config: Config) {
  const handle = openDatabase(config.databaseUrl);
  try {
    expect(await listTables(handle.db, handle.dialect)).toEqual([]);
  } finally {
    await handle.close();
  }
  expect(fs.existsSync(config.artifactsDir)).toBe(false);
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-'));
  backupDir = path.join(dir, 'backup');
  // SQLite: a file, as in production (the online backup API reads it beside the portal's connection)
  source = await createTestApp(
    TEST_DIALECT === 'sqlite' ? { DATABASE_URL: `sqlite:${path.join(dir, 'source.db')}` } : {},
  );
  const { ctx } = source.app;
  customerId = (await createCustomer(ctx.db, { name: 'Sauvegarde Analytics' })).id;
  await createProduct(ctx.db, { key: PRODUCT, name: 'Graph Server' });
  const licence = await createLicence(ctx.db, customerId, PRODUCT, { endDate: '2099-12-31' });
  await createCustomization(ctx.db, customerId, PRODUCT, { customConfig: { theme: 'dark' } });
  await createVersionWithFiles(ctx, PRODUCT, {
    semVer: '2.0.0',
    files: { linux: { bytes: crypto.randomBytes(300_000) }, windows: { bytes: crypto.randomBytes(100_000) } },
  });
  const member = await signedIn(source.app, 'client', { id: customerId, role: 'technicalContact' });
  memberEmail = member.email;
  memberCookie = member.cookie;
  // the licence file (and its audit entry), signed with the key the backup must keep
  const file = await request(source.app, memberCookie, {
    method: 'GET',
    url: `/api/download/license/${PRODUCT}?customerId=${customerId}`,
  });
  expect(file.statusCode).toBe(200);
  licenceFileBefore = LicenceFile.parse(JSON.parse(file.body));
  const secret = (await findLicence(ctx.db, licence.id))!.downloadSecret;
  downloadUrl = secretDownloadPath('linux', PRODUCT, '2.0.0', secret);
  expect((await request(source.app, null, { method: 'GET', url: downloadUrl })).statusCode).toBe(200);
  await ctx.jobs.drain();
});

afterAll(async () => {
  await restored?.close();
  await source?.close();
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore', () => {
  it('restores, from a backup taken while downloads run, every row, every file and the signing key', async () => {
    const counts = await rowsAt(source.config.databaseUrl);
    for (const table of [
      'customers',
      'memberships',
      'licences',
      'customizations',
      'artifacts',
      'downloads',
      'audit_log',
    ]) {
      expect(counts[table]?.length ?? 0, table).toBeGreaterThan(0);
    }

    // downloads (each one queues its record) go on through the whole backup
    let running = true;
    let served = 0;
    const traffic = (async () => {
      while (running) {
        const response = await request(source.app, null, { method: 'GET', url: downloadUrl });
        expect(response.statusCode).toBe(200);
        served++;
      }
    })();
    const before = await rowsOf(source.database);
    try {
      manifest = await createBackup(source.app.ctx, { to: backupDir, progress: (line) => progress.push(line) });
    } finally {
      running = false;
      await traffic;
    }
    const after = await rowsOf(source.database);
    expect(served).toBeGreaterThan(0);
    expect(progress.join('\n')).toContain('Copying the artifact folder');
    expect(manifest.migrationLevel).toBe(knownMigrations(TEST_DIALECT).at(-1));
    expect(manifest.files.map((f) => f.path).filter((p) => p.startsWith('artifacts/'))).toHaveLength(2);

    const target = await freshTarget('restored');
    await restoreBackup(target.config, { from: backupDir, progress: (line) => progress.push(line) });
    expect(progress.at(-1)).toMatch(/^Restored \d+ tables/);

    // the snapshot lies between the rows before the backup and those after it, table by table
    const back = await rowsAt(target.config.databaseUrl);
    expect(Object.keys(back).sort()).toEqual(Object.keys(after).sort());
    for (const table of Object.keys(after)) {
      expect(missingFrom(back[table], before[table]), `${table}: rows lost`).toEqual([]);
      expect(missingFrom(after[table], back[table]), `${table}: rows that never were`).toEqual([]);
      expect(back[table].length, table).toBe(manifest.tables[table]);
    }

    restored = await appOn(target.config);
    const artifacts = await restored.database.db.selectFrom('artifacts').select(['storageKey', 'sha256']).execute();
    expect(artifacts).toHaveLength(2);
    for (const artifact of artifacts) {
      const file = path.join(target.config.artifactsDir, ...artifact.storageKey.split('/'));
      expect(await sha256File(file)).toBe(artifact.sha256);
      expect(await sha256File(path.join(source.config.artifactsDir, ...artifact.storageKey.split('/')))).toBe(
        artifact.sha256,
      );
    }

    // the licence file signed before the backup verifies with the restored portal's published key
    const keys = LicenceSigningKeyList.parse(
      JSON.parse((await request(restored.app, null, { method: 'GET', url: '/api/licence-files/keys' })).body),
    );
    const key = keys.data.find((k) => k.keyId === licenceFileBefore.keyId);
    expect(key?.retiredAt).toBeNull();
    const verified = crypto.verify(
      null,
      Buffer.from(licenceFileBefore.payload, 'ascii'),
      crypto.createPublicKey(key!.publicKey),
      Buffer.from(licenceFileBefore.signature, 'base64url'),
    );
    expect(verified).toBe(true);

    // the member signs in with the password of before, and gets a file signed with the same key
    const login = await request(restored.app, null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: memberEmail, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const file = await request(restored.app, sessionCookieOf(login), {
      method: 'GET',
      url: `/api/download/license/${PRODUCT}?customerId=${customerId}`,
    });
    expect(LicenceFile.parse(JSON.parse(file.body)).keyId).toBe(licenceFileBefore.keyId);
    const download = await request(restored.app, null, { method: 'GET', url: downloadUrl });
    expect(download.statusCode).toBe(200);
  });

  it('refuses a target that holds data, a newer backup, and a damaged one, writing nothing', async () => {
    expect(manifest, 'the first test wrote the backup').toBeDefined();
    const into = (untouched = await freshTarget('untouched'));

    const newer = path.join(dir, 'newer');
    fs.cpSync(backupDir, newer, { recursive: true });
    const future = { ...manifest, migrations: [...manifest.migrations, '999_future'], migrationLevel: '999_future' };
    fs.writeFileSync(path.join(newer, MANIFEST_FILE), JSON.stringify(future));
    await expect(restoreBackup(into.config, { from: newer, progress: () => {} })).rejects.toThrow(
      /migration level 999_future, newer than this portal's .*restore it with portal \S+ or later/,
    );
    await targetIsEmpty(into.config);

    const damaged = path.join(dir, 'damaged');
    fs.cpSync(backupDir, damaged, { recursive: true });
    const artifact = manifest.files.find((f) => f.path.startsWith('artifacts/'))!;
    const bytes = fs.readFileSync(path.join(damaged, artifact.path));
    bytes[1000] ^= 0xff;
    fs.writeFileSync(path.join(damaged, artifact.path), bytes);
    await expect(restoreBackup(into.config, { from: damaged, progress: () => {} })).rejects.toThrow(
      `The backup is damaged: ${artifact.path} does not match its sha256 in the manifest`,
    );
    await targetIsEmpty(into.config);

    // a crafted manifest: a path that climbs out of artifacts/, an absolute one, one named twice
    const crafted = path.join(dir, 'crafted');
    fs.cpSync(backupDir, crafted, { recursive: true });
    const planted = Buffer.from('planted by a crafted manifest');
    fs.writeFileSync(path.join(crafted, 'X'), planted);
    const plantedEntry = { size: planted.length, sha256: crypto.createHash('sha256').update(planted).digest('hex') };
    const outside = path.join(dir, 'outside-X');
    for (const [entry, message] of [
      ['artifacts/../X', 'The manifest names a file outside the backup\'s folders: "artifacts/../X"'],
      [outside, `The manifest names a file outside the backup's folders: ${JSON.stringify(outside)}`],
      ['X', 'The manifest names a file outside the backup\'s folders: "X"'],
      ['artifacts/./X', 'The manifest names a file outside the backup\'s folders: "artifacts/./X"'],
      [artifact.path, `The manifest names ${JSON.stringify(artifact.path)} twice`],
    ] as const) {
      const files = [...manifest.files, { path: entry, ...plantedEntry }];
      fs.writeFileSync(path.join(crafted, MANIFEST_FILE), JSON.stringify({ ...manifest, files }));
      await expect(restoreBackup(into.config, { from: crafted, progress: () => {} }), entry).rejects.toThrow(message);
      await targetIsEmpty(into.config);
      // nothing beside the target either: no planted file, no folder left half restored
      expect(fs.existsSync(path.join(dir, 'X')), entry).toBe(false);
      expect(fs.existsSync(outside), entry).toBe(false);
      expect(
        fs.readdirSync(dir).filter((name) => name.includes('.restoring-')),
        entry,
      ).toEqual([]);
    }

    await expect(restoreBackup(source.config, { from: backupDir, progress: () => {} })).rejects.toThrow(
      /^The target database is not empty \(it holds \d+ tables, e\.g\. \w+/,
    );
    await expect(restoreBackup(into.config, { from: dir, progress: () => {} })).rejects.toThrow(
      'is not a finished backup',
    );
    await expect(createBackup(source.app.ctx, { to: backupDir, progress: () => {} })).rejects.toThrow(
      'is not empty: back up into a new or empty folder',
    );
  });

  it('migrates a backup from an earlier migration level once restored', async () => {
    expect(restored, 'the first test restored a portal').toBeDefined();
    // the restored portal goes back one level, and is backed up there
    await undoLastMigration(restored!.database);
    const older = path.join(dir, 'older');
    const olderManifest = await createBackup(restored!.app.ctx, { to: older, progress: () => {} });
    const latest = knownMigrations(TEST_DIALECT);
    expect(olderManifest.migrations).toEqual(latest.slice(0, -1));

    expect(untouched, 'the refusals left an empty target').toBeDefined();
    const target = untouched;
    const lines: string[] = [];
    await restoreBackup(target.config, { from: older, progress: (line) => lines.push(line) });
    expect(lines).toContain('  the backup is from an earlier level: applying 1 migrations');
    const handle = openDatabase(target.config.databaseUrl);
    try {
      expect(await appliedMigrations(handle.db, handle.dialect)).toEqual(latest);
    } finally {
      await handle.close();
    }
  });

  it('with S3 storage, lists the objects the database expects and restores the database alone', async () => {
    const s3 = await startS3();
    const onS3 = await createTestApp(
      TEST_DIALECT === 'sqlite' ? { DATABASE_URL: `sqlite:${path.join(dir, 's3-source.db')}` } : {},
      { s3: s3.options },
    );
    try {
      await createProduct(onS3.app.ctx.db, { key: 'on-s3' });
      const version = await createVersionWithFiles(onS3.app.ctx, 'on-s3', {
        files: { linux: { bytes: crypto.randomBytes(1000) } },
      });
      const s3Backup = path.join(dir, 's3-backup');
      const written = await createBackup(onS3.app.ctx, { to: s3Backup, progress: () => {} });
      expect(written.storage).toBe('s3');
      expect(written.s3Bucket).toBe(s3.options.bucket);
      const stored = version.artifacts.linux!;
      expect(written.s3Objects).toEqual([{ key: stored.storageKey, size: 1000, sha256: stored.sha256 }]);
      expect(written.files.map((file) => file.path)).toEqual([DATABASE_FILES[TEST_DIALECT]]);

      const target = await freshTarget('s3-restored', { s3: s3.options });
      const lines: string[] = [];
      await restoreBackup(target.config, { from: s3Backup, progress: (line) => lines.push(line) });
      expect(lines.join('\n')).toContain(
        `The artifacts stay in the S3 bucket ${s3.options.bucket}: it must hold the 1 objects manifest.json lists`,
      );
      const rows = await rowsAt(target.config.databaseUrl);
      expect(rows.artifacts).toHaveLength(1);
    } finally {
      await onS3.close();
      await s3.close();
    }
  });
});
