import { sql } from 'kysely';
import type { AppContext } from '../context';
import type { DB } from '../db';
import { DOWNLOAD_RECORD_JOB, type DownloadRecord } from '../modules/downloads/service';
import { TEST_DIALECT } from './harness';

/** Makes every waiting job of `name` due now: a retry's backoff or a digest's window has passed. */
export async function makeJobsDue(db: DB, name: string): Promise<void> {
  if (TEST_DIALECT === 'postgres') {
    await sql`update pgboss.job set start_after = now() - interval '1 second' where name = ${name} and state < 'active'`.execute(
      db,
    );
  } else {
    await sql`update jobs set run_at = ${new Date(Date.now() - 1000).toISOString()} where name = ${name} and state in ('created', 'retry')`.execute(
      db,
    );
  }
}

/**
 * The record of a download of a licence that does not exist: its job's transaction fails on every
 * attempt (a foreign key), so the job ends failed. `secret` rides along under keys the Background
 * work page must not show.
 */
export function unrecordableDownload(secret = 'hunter2-secret'): DownloadRecord & Record<string, unknown> {
  return {
    // short and first, so the page's summary (cut at 200 characters) still shows it redacted whatever
    // the order the database keeps keys in (PostgreSQL's jsonb: shortest first)
    url: `https://portal.test/reset/${secret}`,
    licence: { id: 2_000_000_000, customerId: 2_000_000_000, productKey: 'no-such-product', productName: 'Nothing' },
    version: { id: 2_000_000_000, semVer: '1.0.0' },
    artifact: { id: 2_000_000_000, platform: 'linux' },
    user: null,
    ip: '192.0.2.1',
    at: new Date().toISOString(),
    downloadSecret: secret,
  };
}

/**
 * Queues `count` download records that cannot be written, and runs their attempts until every one
 * has failed for good: failed jobs for the operator routes. Returns their ids, newest first.
 */
export async function failedDownloadRecords(ctx: AppContext, count: number): Promise<string[]> {
  await ctx.jobs.prepare();
  for (let i = 0; i < count; i++) await ctx.jobs.enqueue(ctx.db, DOWNLOAD_RECORD_JOB, unrecordableDownload());
  // the first attempt and every retry (the kind's retryLimit: server/job-kinds.ts)
  for (let round = 0; round < 20; round++) {
    await makeJobsDue(ctx.db, DOWNLOAD_RECORD_JOB);
    if ((await ctx.jobs.drain()) === 0) break;
  }
  const { items } = await ctx.jobs.failed({ limit: 100, offset: 0, name: DOWNLOAD_RECORD_JOB });
  return items.map((job) => job.id);
}

/**
 * A failed job for a route that retries or discards one: the first of `ids` still failed, else the
 * last of them (no longer failed: the route answers 404), so a test that calls the route more often
 * than it made failed jobs still gets a well-formed job.
 */
export function failedJobOf(ctx: AppContext, ids: string[]): () => Promise<{ name: string; id: string }> {
  return async () => {
    const { items } = await ctx.jobs.failed({ limit: 100, offset: 0, name: DOWNLOAD_RECORD_JOB });
    const failed = new Set(items.map((job) => job.id));
    return { name: DOWNLOAD_RECORD_JOB, id: ids.find((id) => failed.has(id)) ?? ids[ids.length - 1] };
  };
}
