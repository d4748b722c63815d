import { CompiledQuery, sql } from 'kysely';
import type { DB } from '../db';
import { isPostgres } from '../db/search';
import type { KindSettings } from '../jobs/store';

/**
 * The plan of a compiled statement, one line per step (PostgreSQL's "QUERY PLAN", SQLite's
 * "detail"). On PostgreSQL sequential scans are switched off, so the plan shows whether an index
 * can serve the query at all: on a small test table the planner would otherwise rightly prefer a scan.
 */
export async function explain(db: DB, query: CompiledQuery): Promise<string> {
  if (isPostgres(db)) {
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      return result.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }
  const result = await db.executeQuery<{ detail: string }>(
    CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
  );
  return result.rows.map((r) => r.detail).join('\n');
}

/** A kind of job for the job stores' plan tests: no retries to speak of, one queue of its own. */
export const PLAN_KIND: KindSettings = {
  name: 'test.plan',
  retryLimit: 2,
  retryDelaySeconds: 1,
  retryBackoff: false,
  expireInSeconds: 60,
  singleton: false,
};
