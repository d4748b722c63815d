import { sql } from 'kysely';
import type { DB } from '../db';
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
