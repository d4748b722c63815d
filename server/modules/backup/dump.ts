import { spawn } from 'node:child_process';
import path from 'node:path';
import SQLite from 'better-sqlite3';

/**
 * The database's side of a backup: SQLite through its online backup API (a page-by-page copy that
 * stays consistent while the portal writes, never a copy of the live file), PostgreSQL through
 * pg_dump's custom format and pg_restore (Debian's postgresql-client).
 */

/** The SQLite file a DATABASE_URL names (`sqlite:<file>`, `sqlite://<file>` or a path); null for `:memory:`. */
export function sqliteFileOf(databaseUrl: string): string | null {
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  return file === ':memory:' ? null : path.resolve(file);
}

/** Copies the live database `source` to `target` while others write to it; reports the share done. */
export async function backupSqlite(source: string, target: string, onProgress: (share: number) => void) {
  const database = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await database.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        onProgress(totalPages === 0 ? 1 : (totalPages - remainingPages) / totalPages);
        // pages per step: a large database is copied in steps, the portal writing in between
        return 1000;
      },
    });
  } finally {
    database.close();
  }
}

/**
 * libpq's environment for a PostgreSQL URL: the password travels in PGPASSWORD, never on a command
 * line that `ps` shows.
 */
function libpqEnvironment(databaseUrl: string): Record<string, string> {
  const url = new URL(databaseUrl);
  const env: Record<string, string> = {
    PGHOST: decodeURIComponent(url.hostname || 'localhost').replace(/^\[|\]$/g, ''),
    PGPORT: url.port || '5432',
    PGDATABASE: decodeURIComponent(url.pathname.replace(/^\//, '')),
  };
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

/** Runs one of PostgreSQL's client programs; its error output becomes the error's message. */
function runClientProgram(program: string, args: string[], databaseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...libpqEnvironment(databaseUrl) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `${program} is not installed: install PostgreSQL's client programs (Debian: apt-get install postgresql-client), of the server's major version or later`
            : `${program} could not start: ${error.message}`,
        ),
      );
    });
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${program} failed (${signal ?? `exit code ${code}`}): ${stderr.trim() || 'no message'}`));
    });
  });
}

/** pg_dump of the whole database in its custom format, at the snapshot a transaction exported. */
export function pgDump(databaseUrl: string, snapshot: string, target: string): Promise<void> {
  return runClientProgram('pg_dump', ['--format=custom', `--snapshot=${snapshot}`, `--file=${target}`], databaseUrl);
}

/**
 * pg_restore into an empty database, all or nothing: one transaction that stops at the first error.
 * Owners and grants are left out: the restored objects belong to the user the portal connects as.
 */
export function pgRestore(databaseUrl: string, dumpFile: string): Promise<void> {
  return runClientProgram(
    'pg_restore',
    [
      '--single-transaction',
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      `--dbname=${libpqEnvironment(databaseUrl).PGDATABASE}`,
      dumpFile,
    ],
    databaseUrl,
  );
}
