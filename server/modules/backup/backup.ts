import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import type { AppContext } from '../../context';
import { backupSqlite, pgDump, sqliteFileOf } from './dump';
import {
  ARTIFACTS_FOLDER,
  DATABASE_FILES,
  type FileEntry,
  MANIFEST_FILE,
  MANIFEST_FORMAT,
  type Manifest,
  megabytes,
  portalVersion,
  sha256File,
} from './manifest';
import { appliedMigrations, countAllRows, expectedObjects, withExportedSnapshot } from './repo';

/**
 * `npm run cli -- backup --to DIR` (docs/backup.md): a consistent snapshot of the database taken
 * while the portal serves requests, a copy of the local artifact folder, and the manifest that
 * states and checks both. Secrets (SESSION_SECRET, keys given in files) are not in it.
 */

export interface Progress {
  (line: string): void;
}

type DatabaseFacts = Pick<Manifest, 'migrations' | 'tables' | 's3Objects'>;

/** A folder to write a backup into: absent or empty, never one holding anything else. */
function prepareTarget(dir: string): void {
  if (fs.existsSync(dir)) {
    if (!fs.statSync(dir).isDirectory()) throw new Error(`${dir} exists and is not a folder`);
    if (fs.readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: back up into a new or empty folder`);
  }
  fs.mkdirSync(dir, { recursive: true });
}

async function snapshotSqlite(ctx: AppContext, target: string, progress: Progress): Promise<DatabaseFacts> {
  const source = sqliteFileOf(ctx.config.databaseUrl);
  if (!source) throw new Error('DATABASE_URL names an in-memory database: there is nothing on disk to back up');
  let reported = -1;
  await backupSqlite(source, target, (share) => {
    const percent = Math.floor(share * 4) * 25;
    if (percent !== reported && percent < 100) progress(`  database: ${percent}%`);
    reported = percent;
  });
  progress(`  database: ${megabytes(fs.statSync(target).size)} copied`);
  const copy = new SQLite(target);
  // one self-contained file: the copy keeps no write-ahead log beside it
  copy.pragma('journal_mode = DELETE');
  // the facts are read from the copy, so they are the snapshot's whatever was written since

  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: copy }), plugins: [new CamelCasePlugin()] });
  try {
    return {
      migrations: await appliedMigrations(db, 'sqlite'),
      tables: await countAllRows(db, 'sqlite'),
      s3Objects: ctx.storage.kind === 's3' ? await expectedObjects(db) : [],
    };
  } finally {
    await db.destroy();
  }
}

function snapshotPostgres(ctx: AppContext, target: string, progress: Progress): Promise<DatabaseFacts> {
  return withExportedSnapshot(ctx.db, async (snapshot, trx) => {
    progress('  database: pg_dump --format=custom');
    await pgDump(ctx.config.databaseUrl, snapshot, target);
    progress(`  database: ${megabytes(fs.statSync(target).size)} dumped`);
    return {
      migrations: await appliedMigrations(trx, 'postgres'),
      tables: await countAllRows(trx, 'postgres'),
      s3Objects: ctx.storage.kind === 's3' ? await expectedObjects(trx) : [],
    };
  });
}

/** Copies a file, answering the sha256 of the bytes written. */
async function copyHashing(source: string, target: string): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  await pipeline(fs.createReadStream(source), meter, fs.createWriteStream(target, { flags: 'wx' }));
  return { size, sha256: hash.digest('hex') };
}

/**
 * Copies the local store's objects. Taken after the database's snapshot: a file uploaded since is
 * copied too and harms nothing; one deleted since (its version removed meanwhile) is said and skipped.
 */
async function copyArtifacts(ctx: AppContext, dir: string, progress: Progress): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  let bytes = 0;
  let lastReport = Date.now();
  for await (const { key } of ctx.storage.list()) {
    const source = ctx.storage.localPath(key);
    if (!source) continue;
    const relative = `${ARTIFACTS_FOLDER}/${key}`;
    const target = path.join(dir, ARTIFACTS_FOLDER, ...key.split('/'));
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    try {
      const copied = await copyHashing(source, target);
      entries.push({ path: relative, ...copied });
      bytes += copied.size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await fs.promises.rm(target, { force: true });
      progress(`  artifacts: ${key} was deleted during the backup; skipped`);
    }
    if (Date.now() - lastReport >= 2000) {
      progress(`  artifacts: ${entries.length} files, ${megabytes(bytes)} so far`);
      lastReport = Date.now();
    }
  }
  progress(`  artifacts: ${entries.length} files, ${megabytes(bytes)}`);
  return entries;
}

/** Writes the backup into `dir` (absent or empty); answers its manifest. On failure the folder is left as it was. */
export async function createBackup(ctx: AppContext, input: { to: string; progress: Progress }): Promise<Manifest> {
  const dir = path.resolve(input.to);
  const { progress } = input;
  const existed = fs.existsSync(dir);
  prepareTarget(dir);
  try {
    const databaseFile = DATABASE_FILES[ctx.dialect];
    const databasePath = path.join(dir, databaseFile);
    progress(`Backing up the ${ctx.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database`);
    const facts =
      ctx.dialect === 'sqlite'
        ? await snapshotSqlite(ctx, databasePath, progress)
        : await snapshotPostgres(ctx, databasePath, progress);
    const files: FileEntry[] = [
      { path: databaseFile, size: fs.statSync(databasePath).size, sha256: await sha256File(databasePath) },
    ];
    if (ctx.storage.kind === 'local') {
      progress('Copying the artifact folder');
      files.push(...(await copyArtifacts(ctx, dir, progress)));
    } else {
      progress(`Artifacts are in the S3 bucket: listing the ${facts.s3Objects.length} objects the database expects`);
    }
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      portalVersion: portalVersion(),
      createdAt: new Date().toISOString(),
      dialect: ctx.dialect,
      migrations: facts.migrations,
      migrationLevel: facts.migrations.at(-1) ?? null,
      tables: facts.tables,
      files,
      storage: ctx.storage.kind,
      s3Bucket: ctx.config.s3?.bucket ?? null,
      s3Objects: facts.s3Objects,
    };
    // written last and renamed into place: a folder with a manifest is a finished backup
    const partial = path.join(dir, `${MANIFEST_FILE}.partial`);
    fs.writeFileSync(partial, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
    fs.renameSync(partial, path.join(dir, MANIFEST_FILE));
    return manifest;
  } catch (error) {
    if (existed)
      for (const entry of fs.readdirSync(dir)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
    else fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
