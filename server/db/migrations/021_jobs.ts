import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Background work (docs/decisions/063).
 * - `job_schedules`, on both databases: the next slot of each recurring job. A node that finds a slot
 *   due moves it forward only if nobody did since it read it, and queues the run in the same
 *   transaction: each slot runs once however many nodes look.
 * - `jobs`, on SQLite only: the queue of a single node (PostgreSQL keeps its jobs in pg-boss's own
 *   schema, created by pg-boss). At most one job per kind and singleton key waits at a time.
 *
 * - The mail outbox loses its own delivery bookkeeping (a node's claim and the next attempt's time): each
 *   mail is delivered by a job, which keeps those; the row stays the record of the mail. It keeps the
 *   address of the settings page a notification's List-Unsubscribe header names.
 * - `licence_expiry_notices`: which licence was told about for which end date (a renewal moves the end
 *   date, which re-arms both notices); the daily run queues only what has no row yet.
 * - `download_digests`: per customer, the last download a digest of downloads told of.
 *
 * The states are frozen here (a migration that ran does not change).
 */
const STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'];

export function jobsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('mail_outbox_status_next_attempt_at_idx').execute();
      await db.schema.alterTable('mail_outbox').dropColumn('claimed_by').execute();
      await db.schema.alterTable('mail_outbox').dropColumn('next_attempt_at').execute();
      await db.schema.alterTable('mail_outbox').addColumn('list_unsubscribe', 'text').execute();
      await db.schema
        .createTable('licence_expiry_notices')
        .addColumn('licence_id', 'integer', (c) => c.notNull().references('licences.id').onDelete('cascade'))
        .addColumn('end_date', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('licence_expiry_notices_pk', ['licence_id', 'end_date', 'kind'])
        .addCheckConstraint('licence_expiry_notices_kind_check', sql`kind in ('expiresSoon', 'expired')`)
        .execute();
      await db.schema
        .createTable('download_digests')
        .addColumn('customer_id', 'integer', (c) => c.primaryKey())
        .addColumn('last_download_id', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('job_schedules')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('cron', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('next_run_at', 'text', (c) => c.notNull())
        .execute();
      if (dialect !== 'sqlite') return;
      const allowed = sql.join(STATES.map((state) => sql.lit(state)));
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('singleton_key', 'text')
        .addColumn('retry_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('retry_limit', 'integer', (c) => c.notNull())
        .addColumn('retry_delay', 'integer', (c) => c.notNull())
        .addColumn('retry_backoff', 'integer', (c) => c.notNull())
        .addColumn('expire_in', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('completed_at', 'text')
        .addCheckConstraint('jobs_state_check', sql`state in (${allowed})`)
        .execute();
      // what a fetch reads: the due jobs of one kind, the longest waiting first
      await sql`create index jobs_due_idx on jobs (name, run_at, id) where state in ('created', 'retry')`.execute(db);
      await sql`create unique index jobs_singleton_idx on jobs (name, singleton_key) where state = 'created' and singleton_key is not null`.execute(
        db,
      );
      await sql`create index jobs_state_completed_at_idx on jobs (state, completed_at)`.execute(db);
    },
    async down(db: Kysely<any>) {
      if (dialect === 'sqlite') await db.schema.dropTable('jobs').execute();
      await db.schema.dropTable('job_schedules').execute();
      await db.schema.dropTable('download_digests').execute();
      await db.schema.dropTable('licence_expiry_notices').execute();
      await db.schema.alterTable('mail_outbox').dropColumn('list_unsubscribe').execute();
      await db.schema.alterTable('mail_outbox').addColumn('claimed_by', 'text').execute();
      await db.schema
        .alterTable('mail_outbox')
        .addColumn('next_attempt_at', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createIndex('mail_outbox_status_next_attempt_at_idx')
        .on('mail_outbox')
        .columns(['status', 'next_attempt_at'])
        .execute();
    },
  };
}
