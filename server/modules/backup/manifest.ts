import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';

/**
 * A backup folder's `manifest.json` (docs/backup.md): what the backup holds and how to check it.
 * Written last, so a folder without one is a backup that did not finish.
 */

export const MANIFEST_FILE = 'manifest.json';
export const MANIFEST_FORMAT = 1;
/** The database's file in the folder: SQLite's own file format, or pg_dump's custom format. */
export const DATABASE_FILES = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const;
/** The local artifact folder's copy, under the same keys. */
export const ARTIFACTS_FOLDER = 'artifacts';

const FileEntry = z.object({
  path: z.string(),
  size: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const Manifest = z.object({
  format: z.literal(MANIFEST_FORMAT),
  portalVersion: z.string(),
  createdAt: z.string(),
  dialect: z.enum(['sqlite', 'postgres']),
  /** the migrations the database had run, in order; the last is its level */
  migrations: z.array(z.string()),
  migrationLevel: z.string().nullable(),
  /** rows per table, as the snapshot holds them */
  tables: z.record(z.string(), z.number().int().min(0)),
  /** every file of the backup but this one, with its sha256 */
  files: z.array(FileEntry),
  /**
   * Where the artifacts' bytes were: 'local' (copied under `artifacts/`) or 's3' (the bucket stays
   * the operator's to replicate; `s3Objects` lists what the database expects to find there).
   */
  storage: z.enum(['local', 's3']),
  s3Bucket: z.string().nullable(),
  s3Objects: z.array(z.object({ key: z.string(), size: z.number().int().min(0), sha256: z.string() })),
});
export type Manifest = z.infer<typeof Manifest>;

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Reads and checks a backup's manifest; a clear sentence when there is none or it is not one. */
export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new Error(`${file} does not exist: ${dir} is not a finished backup`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON`);
  }
  const manifest = Manifest.safeParse(parsed);
  if (!manifest.success) {
    const first = manifest.error.issues[0];
    throw new Error(`${file} is not a backup manifest of this portal (${first.path.join('.')}: ${first.message})`);
  }
  return manifest.data;
}

/** The portal's version: its package.json's, found from this file up (the sources or dist-server/). */
export function portalVersion(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'graph-portal' && pkg.version) return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

/** A size for progress lines: 12.3 MB. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
