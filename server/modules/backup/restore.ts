import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import type { Config } from '../../config';
import { type DatabaseHandle, dialectOf, knownMigrations, migrateToLatest, openDatabase } from '../../db';
import { assertSafeKey } from '../../integrations/storage/types';
import type { Progress } from './backup';
import { pgRestore, sqliteFileOf } from './dump';
import { ARTIFACTS_FOLDER, DATABASE_FILES, type Manifest, megabytes, readManifest, sha256File } from './manifest';
import { countAllRows, dropRestoredObjects, listTables } from './repo';

/**
 * `npm run cli -- restore --from DIR` (docs/backup.md): into an empty database and artifact folder
 * only. Every file is checked against the manifest before anything is written; the database and the
 * files are restored beside their targets and put in place at the end, so a failure leaves the
 * targets as empty as they were.
 */

class RestoreRefused extends Error {}

/**
 * Every path of the manifest names a file of its own inside the backup, checked before anything is
 * read or written: the database's file, or `artifacts/` and a key the artifact store itself would
 * take (plain segments, no `..`, `.`, absolute path or backslash), each once. A crafted
 * `artifacts/../X` would otherwise be copied beside the target folder.
 */
function refuseUnsafePaths(manifest: Manifest): void {
  const database = DATABASE_FILES[manifest.dialect];
  const seen = new Set<string>();
  for (const { path: entry } of manifest.files) {
    if (entry !== database && !isArtifactPath(entry)) {
      throw new RestoreRefused(`The manifest names a file outside the backup's folders: ${JSON.stringify(entry)}`);
    }
    if (seen.has(entry)) throw new RestoreRefused(`The manifest names ${JSON.stringify(entry)} twice`);
    seen.add(entry);
  }
  if (!seen.has(database)) throw new RestoreRefused(`The manifest names no ${database}: the backup is incomplete`);
}

function isArtifactPath(entry: string): boolean {
  if (!entry.startsWith(`${ARTIFACTS_FOLDER}/`)) return false;
  try {
    assertSafeKey(entry.slice(ARTIFACTS_FOLDER.length + 1));
    return true;
  } catch {
    return false;
  }
}

/** Checks every file of the backup against its size and sha256 in the manifest. */
async function verifyBackup(dir: string, manifest: Manifest, progress: Progress): Promise<void> {
  progress(`Checking the backup's ${manifest.files.length} files against the manifest`);
  let bytes = 0;
  let lastReport = Date.now();
  for (const [index, entry] of manifest.files.entries()) {
    const file = path.join(dir, ...entry.path.split('/'));
    if (!path.resolve(file).startsWith(path.resolve(dir) + path.sep)) {
      throw new RestoreRefused(`The manifest names a file outside the backup: ${entry.path}`);
    }
    if (!fs.existsSync(file)) throw new RestoreRefused(`The backup is incomplete: ${entry.path} is missing`);
    if (fs.statSync(file).size !== entry.size || (await sha256File(file)) !== entry.sha256) {
      throw new RestoreRefused(`The backup is damaged: ${entry.path} does not match its sha256 in the manifest`);
    }
    bytes += entry.size;
    if (Date.now() - lastReport >= 2000) {
      progress(`  checked ${index + 1} of ${manifest.files.length} files, ${megabytes(bytes)}`);
      lastReport = Date.now();
    }
  }
}

/** A migration the backup's database ran that this portal does not know: the backup comes from a later version. */
function refuseNewerLevel(manifest: Manifest): void {
  const known = new Set(knownMigrations(manifest.dialect));
  const unknown = manifest.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new RestoreRefused(
      `The backup is at migration level ${manifest.migrationLevel}, newer than this portal's ` +
        `(${[...known].at(-1)}; it does not know ${unknown.join(', ')}): restore it with portal ` +
        `${manifest.portalVersion} or later`,
    );
  }
}

function sqliteKysely(file: string, readonly: boolean) {
  return new Kysely<any>({
    dialect: new SqliteDialect({ database: new SQLite(file, { readonly, fileMustExist: true }) }),
    plugins: [new CamelCasePlugin()],
  });
}

/** The target database holds no table (a SQLite file that does not exist yet is empty too). */
async function refuseNonEmptyDatabase(config: Config): Promise<void> {
  const dialect = dialectOf(config.databaseUrl);
  let tables: string[];
  if (dialect === 'sqlite') {
    const file = sqliteFileOf(config.databaseUrl);
    if (!file) throw new RestoreRefused('DATABASE_URL names an in-memory database: restore into a file');
    if (!fs.existsSync(file) || fs.statSync(file).size === 0) return;
    const db = sqliteKysely(file, true);
    try {
      tables = await listTables(db, 'sqlite');
    } finally {
      await db.destroy();
    }
  } else {
    const handle = openDatabase(config.databaseUrl);
    try {
      tables = await listTables(handle.db, 'postgres');
    } finally {
      await handle.close();
    }
  }
  if (tables.length > 0) {
    throw new RestoreRefused(
      `The target database is not empty (it holds ${tables.length} tables, e.g. ` +
        `${portalTablesFirst(tables).slice(0, 3).join(', ')}): restore into a new, empty database`,
    );
  }
}

/** The portal's own tables before those of other schemas (pg-boss's), for a message that names them. */
function portalTablesFirst(tables: string[]): string[] {
  return [...tables.filter((t) => !t.includes('.')), ...tables.filter((t) => t.includes('.'))];
}

function refuseNonEmptyFolder(folder: string): void {
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0) {
    throw new RestoreRefused(`The artifact folder ${folder} is not empty: restore into a new, empty folder`);
  }
}

/** Checks the restored rows against the manifest's counts, before migrations add any. */
async function verifyCounts(handle: DatabaseHandle, manifest: Manifest): Promise<void> {
  const counts = await countAllRows(handle.db, handle.dialect);
  for (const [table, expected] of Object.entries(manifest.tables)) {
    if (counts[table] !== expected) {
      throw new Error(`The restored table ${table} holds ${counts[table] ?? 'no'} rows; the manifest says ${expected}`);
    }
  }
}

/** Restores the database beside or into its target and migrates it; answers how to undo it. */
async function restoreDatabase(
  config: Config,
  dir: string,
  manifest: Manifest,
  progress: Progress,
  undo: (() => Promise<void>)[],
): Promise<() => void> {
  const dump = path.join(dir, DATABASE_FILES[manifest.dialect]);
  if (manifest.dialect === 'sqlite') {
    const target = sqliteFileOf(config.databaseUrl) as string;
    const staging = `${target}.restoring-${crypto.randomBytes(4).toString('hex')}`;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    undo.push(async () => {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${staging}${suffix}`, { force: true });
    });
    progress('Restoring the SQLite database');
    fs.copyFileSync(dump, staging);
    await migrateChecked(`sqlite:${staging}`, manifest, progress);
    return () => {
      // the empty target (and the journal files of an empty database) give way to the restored file
      for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
      fs.renameSync(staging, target);
    };
  }
  progress('Restoring the PostgreSQL database with pg_restore (one transaction)');
  undo.push(async () => {
    const handle = openDatabase(config.databaseUrl);
    try {
      await dropRestoredObjects(handle.db);
    } finally {
      await handle.close();
    }
  });
  await pgRestore(config.databaseUrl, dump);
  await migrateChecked(config.databaseUrl, manifest, progress);
  return () => {};
}

async function migrateChecked(databaseUrl: string, manifest: Manifest, progress: Progress): Promise<void> {
  const handle = openDatabase(databaseUrl);
  try {
    await verifyCounts(handle, manifest);
    progress(`  rows of ${Object.keys(manifest.tables).length} tables match the manifest`);
    const missing = knownMigrations(manifest.dialect).length - manifest.migrations.length;
    if (missing > 0) progress(`  the backup is from an earlier level: applying ${missing} migrations`);
    await migrateToLatest(handle);
  } finally {
    await handle.close();
  }
}

/** Copies the backup's artifacts into a folder beside the target, checking each copy's sha256. */
async function stageArtifacts(dir: string, target: string, manifest: Manifest, progress: Progress): Promise<string> {
  const staging = `${target}.restoring-${crypto.randomBytes(4).toString('hex')}`;
  const entries = manifest.files.filter((entry) => entry.path.startsWith(`${ARTIFACTS_FOLDER}/`));
  progress(`Restoring ${entries.length} artifact files`);
  fs.mkdirSync(staging, { recursive: true });
  for (const entry of entries) {
    const key = entry.path.slice(ARTIFACTS_FOLDER.length + 1);
    const copy = path.join(staging, ...key.split('/'));
    // refuseUnsafePaths let no such path through; a copy never lands outside its folder all the same
    if (!copy.startsWith(staging + path.sep)) throw new RestoreRefused(`${entry.path} is outside the artifact folder`);
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.copyFileSync(path.join(dir, ...entry.path.split('/')), copy, fs.constants.COPYFILE_EXCL);
    if ((await sha256File(copy)) !== entry.sha256)
      throw new Error(`The copy of ${entry.path} does not match its sha256`);
  }
  return staging;
}

/** Restores the backup in `from` into the configured, empty database and artifact folder. */
export async function restoreBackup(config: Config, input: { from: string; progress: Progress }): Promise<Manifest> {
  const dir = path.resolve(input.from);
  const { progress } = input;
  const manifest = readManifest(dir);
  refuseUnsafePaths(manifest);
  const dialect = dialectOf(config.databaseUrl);
  if (manifest.dialect !== dialect) {
    throw new RestoreRefused(`The backup holds a ${manifest.dialect} database; DATABASE_URL names a ${dialect} one`);
  }
  refuseNewerLevel(manifest);
  const localFiles = manifest.storage === 'local';
  if (localFiles && config.s3) {
    throw new RestoreRefused(
      'The backup holds a local artifact folder but S3_BUCKET is set: restore with the local folder, then move the files to the bucket',
    );
  }
  await refuseNonEmptyDatabase(config);
  if (localFiles) refuseNonEmptyFolder(config.artifactsDir);
  await verifyBackup(dir, manifest, progress);

  const undo: (() => Promise<void>)[] = [];
  try {
    let stagedFiles: string | null = null;
    if (localFiles) {
      stagedFiles = await stageArtifacts(dir, config.artifactsDir, manifest, progress);
      const staged = stagedFiles;
      undo.push(async () => fs.rmSync(staged, { recursive: true, force: true }));
    }
    const putDatabaseInPlace = await restoreDatabase(config, dir, manifest, progress, undo);
    if (stagedFiles) {
      fs.rmSync(config.artifactsDir, { recursive: true, force: true });
      fs.renameSync(stagedFiles, config.artifactsDir);
      undo.push(async () => fs.rmSync(config.artifactsDir, { recursive: true, force: true }));
    }
    putDatabaseInPlace();
  } catch (error) {
    progress('Restore failed: undoing what it wrote');
    for (const step of undo.reverse()) await step().catch(() => {});
    throw error;
  }
  if (!localFiles) {
    progress(
      `The artifacts stay in the S3 bucket ${manifest.s3Bucket}: it must hold the ${manifest.s3Objects.length} objects manifest.json lists (s3Objects)`,
    );
  }
  const rows = Object.values(manifest.tables).reduce((sum, n) => sum + n, 0);
  progress(`Restored ${Object.keys(manifest.tables).length} tables (${rows} rows) and ${manifest.files.length} files`);
  return manifest;
}
