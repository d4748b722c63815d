import { type Insertable, type SqlBool, sql } from 'kysely';
import type { DB } from '../db';
import type { JobsTable } from '../db/schema';
import { type FetchedJob, type JobStore, type KindSettings, retryDelaySeconds } from './store';
import type { FailedJob } from './types';

/** Finished jobs kept for the counts: completed a week, failed a month (as on PostgreSQL). */
const KEEP_COMPLETED_MS = 7 * 24 * 60 * 60 * 1000;
const KEEP_FAILED_MS = 30 * 24 * 60 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The condition of the partial index `jobs_due_idx` (migration 021), written out in the SQL: SQLite
 * uses a partial index only when it can tell from the statement alone that the query stays within the
 * index's rows, which a state passed as a parameter hides. With parameters each fetch scanned and
 * sorted the whole queue (52,000 waiting jobs after a daily run over 1M licences: decision 089).
 */
const DUE_STATES = sql<SqlBool>`state in ('created', 'retry')`;

/** Jobs per statement of `insertMany`. */
const INSERT_SLICE = 500;

function newJob(kind: KindSettings, payload: unknown, runAt?: Date, singletonKey?: string): Insertable<JobsTable> {
  const now = iso(Date.now());
  return {
    name: kind.name,
    payload: JSON.stringify(payload ?? null),
    state: 'created',
    runAt: runAt ? runAt.toISOString() : now,
    singletonKey: singletonKey ?? null,
    retryLimit: kind.retryLimit,
    retryDelay: kind.retryDelaySeconds,
    retryBackoff: kind.retryBackoff ? 1 : 0,
    expireIn: kind.expireInSeconds,
    lastError: null,
    createdAt: now,
    startedAt: null,
    completedAt: null,
  };
}

/**
 * Jobs in the `jobs` table of a SQLite portal (decision 063): one node by nature, so a fetch is a plain
 * UPDATE … RETURNING (SQLite runs one writer at a time), and an attempt still active when the node
 * starts is one its previous life was running when it stopped: due again at once (recover()).
 */
export function createSqliteStore(database: DB): JobStore {
  const db = database.withTables<{ jobs: JobsTable }>();

  return {
    async prepare() {
      // the table is the migrations' (021_jobs); kinds keep their settings on each job
    },

    async insert(executor, kind, payload, options) {
      const result = await executor
        .withTables<{ jobs: JobsTable }>()
        .insertInto('jobs')
        .values(newJob(kind, payload, options.runAt, options.singletonKey))
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async insertMany(executor, kind, payloads) {
      // 13 values a row: a slice stays well under SQLite's limit of bound values per statement
      for (let start = 0; start < payloads.length; start += INSERT_SLICE) {
        const rows = payloads.slice(start, start + INSERT_SLICE).map((payload) => newJob(kind, payload));
        await executor.withTables<{ jobs: JobsTable }>().insertInto('jobs').values(rows).execute();
      }
    },

    async fetch(kind, limit) {
      const now = iso(Date.now());
      const rows = await db
        .updateTable('jobs')
        .set({
          state: 'active',
          startedAt: now,
          // pg-boss counts a retry when a job that started before starts again
          retryCount: sql`case when started_at is not null then retry_count + 1 else retry_count end`,
        })
        .where(
          'id',
          'in',
          db
            .selectFrom('jobs')
            .select('id')
            .where('name', '=', kind.name)
            .where(DUE_STATES)
            .where('runAt', '<=', now)
            .orderBy('runAt')
            .orderBy('id')
            .limit(limit),
        )
        .returning(['id', 'payload', 'retryCount', 'retryLimit'])
        .execute();
      return rows
        .sort((a, b) => a.id - b.id)
        .map((row): FetchedJob => ({
          id: String(row.id),
          payload: JSON.parse(row.payload) as unknown,
          retryCount: row.retryCount,
          retryLimit: row.retryLimit,
        }));
    },

    async complete(name, ids) {
      await db
        .updateTable('jobs')
        .set({ state: 'completed', completedAt: iso(Date.now()) })
        .where('id', 'in', ids.map(Number))
        .where('name', '=', name)
        .where('state', '=', 'active')
        .execute();
    },

    async fail(name, id, error) {
      const job = await db
        .selectFrom('jobs')
        .select(['retryCount', 'retryLimit', 'retryDelay', 'retryBackoff'])
        .where('id', '=', Number(id))
        .where('name', '=', name)
        .where('state', '=', 'active')
        .executeTakeFirst();
      if (!job) return;
      const now = Date.now();
      const last = job.retryCount >= job.retryLimit;
      const delay = retryDelaySeconds(
        { retryDelaySeconds: job.retryDelay, retryBackoff: job.retryBackoff === 1 },
        job.retryCount,
      );
      await db
        .updateTable('jobs')
        .set({
          state: last ? 'failed' : 'retry',
          lastError: error.slice(0, 4000),
          runAt: last ? sql`run_at` : iso(now + delay * 1000),
          completedAt: last ? iso(now) : null,
        })
        .where('id', '=', Number(id))
        .where('state', '=', 'active')
        .execute();
    },

    async putOff(name, id, runAt) {
      await db
        .updateTable('jobs')
        .set({ state: 'retry', runAt: runAt.toISOString(), startedAt: null })
        .where('id', '=', Number(id))
        .where('name', '=', name)
        .where('state', '=', 'active')
        .execute();
    },

    async recover() {
      await db
        .updateTable('jobs')
        .set({ state: 'retry', runAt: iso(Date.now()) })
        .where('state', '=', 'active')
        .execute();
    },

    async maintain() {
      const now = Date.now();
      // attempts past their time: failed like any other failure (retried while attempts remain)
      const expired = await db
        .selectFrom('jobs')
        .select(['id', 'name'])
        .where('state', '=', 'active')
        .where(sql<boolean>`julianday(started_at) + expire_in / 86400.0 < julianday(${iso(now)})`)
        .execute();
      for (const job of expired) await this.fail(job.name, String(job.id), 'the attempt ran past its time');
      await db
        .deleteFrom('jobs')
        .where((eb) =>
          eb.or([
            eb.and([
              eb('state', 'in', ['completed', 'cancelled']),
              eb('completedAt', '<', iso(now - KEEP_COMPLETED_MS)),
            ]),
            eb.and([eb('state', '=', 'failed'), eb('completedAt', '<', iso(now - KEEP_FAILED_MS))]),
          ]),
        )
        .execute();
    },

    async counts() {
      const rows = await db
        .selectFrom('jobs')
        .select(['name', 'state', (eb) => eb.fn.countAll<number>().as('count')])
        .groupBy(['name', 'state'])
        .execute();
      return rows.map((row) => ({ name: row.name, state: row.state, count: Number(row.count) }));
    },

    async failed({ limit, offset, name }) {
      let query = db.selectFrom('jobs').where('state', '=', 'failed');
      if (name) query = query.where('name', '=', name);
      const items = await query
        .select(['id', 'name', 'lastError', 'retryCount', 'payload', 'createdAt', 'completedAt'])
        .orderBy('completedAt', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      return {
        total: Number(total),
        items: items.map((row): FailedJob => ({
          id: String(row.id),
          name: row.name,
          error: row.lastError,
          attempts: row.retryCount + 1,
          payload: JSON.parse(row.payload) as unknown,
          createdAt: row.createdAt,
          failedAt: row.completedAt,
        })),
      };
    },

    async retry(name, id) {
      if (!/^\d{1,15}$/.test(id)) return false;
      // one more attempt, as pg-boss's retry gives
      const result = await db
        .updateTable('jobs')
        .set({ state: 'retry', runAt: iso(Date.now()), completedAt: null, retryLimit: sql`retry_limit + 1` })
        .where('id', '=', Number(id))
        .where('name', '=', name)
        .where('state', '=', 'failed')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async discard(name, id) {
      if (!/^\d{1,15}$/.test(id)) return false;
      const result = await db
        .deleteFrom('jobs')
        .where('id', '=', Number(id))
        .where('name', '=', name)
        .where('state', '=', 'failed')
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async close() {},
  };
}
