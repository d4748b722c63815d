import Database from 'better-sqlite3';

interface FailedJobRow {
  name: string;
  error: string;
  payload: unknown;
}

/**
 * Writes a failed job into a worker portal's jobs table (SQLite, server/jobs/sqlite-store.ts), as the
 * engine leaves one whose every attempt failed: a journey cannot wait out a kind's retries, which
 * take minutes to hours. Answers its id.
 */
export function addFailedJob(databaseFile: string, job: FailedJobRow): string {
  const db = new Database(databaseFile);
  try {
    db.pragma('busy_timeout = 5000');
    const now = new Date().toISOString();
    const result = db
      .prepare(
        `insert into jobs (name, payload, state, run_at, retry_count, retry_limit, retry_delay, retry_backoff,
           expire_in, last_error, created_at, started_at, completed_at)
         values (?, ?, 'failed', ?, 10, 10, 5, 1, 300, ?, ?, ?, ?)`,
      )
      .run(job.name, JSON.stringify(job.payload), now, job.error, now, now, now);
    return String(result.lastInsertRowid);
  } finally {
    db.close();
  }
}
