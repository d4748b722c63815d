import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { DB } from '../db';
import { type FetchedJob, type JobStore, type KindSettings } from './store';
import type { FailedJob, JobCount, JobState } from './types';

/** Jobs per statement of `insertMany`. */
const INSERT_SLICE = 1000;

/** pg-boss's schema in the portal's database. */
export const PG_BOSS_SCHEMA = 'pgboss';

/** Completed jobs leave the queue's table after an hour (kept in the archive), all go after 7 days. */
const ARCHIVE_COMPLETED_AFTER_SECONDS = 60 * 60;
/** Failed jobs stay in the queue's table a month, where operators retry or discard them. */
const ARCHIVE_FAILED_AFTER_SECONDS = 30 * 24 * 60 * 60;
const DELETE_AFTER_DAYS = 7;

/**
 * pg-boss's fetch takes the due jobs of a queue `ORDER BY priority desc, created_on, id` with FOR
 * UPDATE SKIP LOCKED, and its own index (name, start_after) gives no such order: every fetch read and
 * sorted all the queue's due jobs, the lock coming between the sort and the limit (a full sort, not a
 * top-N one). With the daily run's 52,000 jobs queued at 100k customers a fetch of one job took 78 ms,
 * sorting 3 MB on disk. Jobs waiting are in this index in the fetch's order, so a fetch reads only the
 * jobs it takes (0.5 ms). Made on the partitioned table, it is on every queue's table, those created
 * later too (decision 089). Made once: CREATE INDEX locks the jobs against writes even when the index
 * is there, so a start looks for it first.
 */
const FETCH_ORDER_INDEX = 'job_fetch_order_idx';

/**
 * pg-boss runs its SQL through this: the portal's own pool (no second one), with Kysely's plugins
 * left out (pg-boss names its columns itself). Given a transaction, the SQL runs in it: that is how a
 * job is queued in the caller's transaction.
 */
function sqlThrough(executor: DB): PgBoss.Db {
  const raw = executor.withoutPlugins();
  return {
    async executeSql(text: string, values?: unknown[]) {
      const query = CompiledQuery.raw(text, values ?? []);
      if (executor.isTransaction || !/^\s*BEGIN\b/i.test(text)) {
        return { rows: (await raw.executeQuery(query)).rows as unknown[] } as never;
      }
      // pg-boss's own transactions (its migrations, its maintenance) are one text of several statements:
      // one that fails midway leaves its connection in the aborted transaction, which the next query on
      // that connection would meet. Rolled back on the spot, on the same connection.
      return raw.connection().execute(async (connection) => {
        try {
          return { rows: (await connection.executeQuery(query)).rows as unknown[] } as never;
        } catch (error) {
          await connection.executeQuery(CompiledQuery.raw('ROLLBACK')).catch(() => {});
          throw error;
        }
      });
    },
  };
}

function queueOptions(kind: KindSettings): PgBoss.Queue {
  return {
    name: kind.name,
    // `short`: one created job per key at a time, which is what a singleton kind asks for
    policy: kind.singleton ? 'short' : 'standard',
    retryLimit: kind.retryLimit,
    retryDelay: kind.retryDelaySeconds,
    retryBackoff: kind.retryBackoff,
    expireInSeconds: kind.expireInSeconds,
  };
}

/**
 * Jobs in pg-boss (decision 063). Nodes share them through PostgreSQL: a fetch takes due jobs with
 * FOR UPDATE SKIP LOCKED, so each attempt goes to one node. The portal runs pg-boss's storage and
 * queries only (its fetch, complete, fail, retry, maintenance); fetching on a timer, schedules and
 * final failures are the runner's (runner.ts), the same for both engines.
 */
export function createPgBossStore(db: DB): JobStore {
  const boss = new PgBoss({
    db: sqlThrough(db),
    schema: PG_BOSS_SCHEMA,
    // maintenance and schedules are driven by the runner; nothing of pg-boss's own runs on a timer
    supervise: false,
    schedule: false,
    migrate: true,
    archiveCompletedAfterSeconds: ARCHIVE_COMPLETED_AFTER_SECONDS,
    archiveFailedAfterSeconds: ARCHIVE_FAILED_AFTER_SECONDS,
    deleteAfterDays: DELETE_AFTER_DAYS,
  });
  // pg-boss reports its own failures as events; the runner logs what its calls throw
  boss.on('error', () => {});
  let prepared: Promise<void> | null = null;

  /**
   * pg-boss's schema and the queues, one node at a time: nodes starting together would each find no
   * schema and create it (the second failing), or each create a queue (a partition table: deadlock).
   * A session lock on a connection of our own is held meanwhile; pg-boss runs on the others.
   */
  async function prepareOnce(kinds: KindSettings[]): Promise<void> {
    await db.connection().execute(async (connection) => {
      const lock = sqlThrough(connection);
      await lock.executeSql(`SELECT pg_advisory_lock(hashtext('${PG_BOSS_SCHEMA}.prepare'))`, []);
      try {
        await boss.start();
        for (const kind of kinds) {
          const options = queueOptions(kind);
          if (await boss.getQueue(kind.name)) await boss.updateQueue(kind.name, options);
          else await boss.createQueue(kind.name, options);
        }
        const present = (await lock.executeSql('SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [
          PG_BOSS_SCHEMA,
          FETCH_ORDER_INDEX,
        ])) as { rows: unknown[] };
        if (present.rows.length === 0) {
          await lock.executeSql(
            `CREATE INDEX IF NOT EXISTS ${FETCH_ORDER_INDEX} ON ${PG_BOSS_SCHEMA}.job
              (name, priority DESC, created_on, id) WHERE state < 'active'`,
            [],
          );
        }
      } finally {
        await lock.executeSql(`SELECT pg_advisory_unlock(hashtext('${PG_BOSS_SCHEMA}.prepare'))`, []);
      }
    });
  }
  const raw = db.withoutPlugins();
  const query = async <R>(text: string, values: unknown[] = []) =>
    (await raw.executeQuery(CompiledQuery.raw(text, values))).rows as R[];

  return {
    async prepare(kinds) {
      prepared ??= prepareOnce(kinds);
      await prepared;
    },

    async insert(executor, kind, payload, options) {
      const id = await boss.send(kind.name, payload as object, {
        db: sqlThrough(executor),
        ...(options.runAt ? { startAfter: options.runAt } : {}),
        ...(options.singletonKey !== undefined ? { singletonKey: options.singletonKey } : {}),
      });
      return id !== null;
    },

    async insertMany(executor, kind, payloads) {
      // one statement per slice: pg-boss inserts the array it is given, as JSON, in one INSERT … SELECT
      for (let start = 0; start < payloads.length; start += INSERT_SLICE) {
        const slice = payloads.slice(start, start + INSERT_SLICE);
        await boss.insert(
          slice.map((payload) => ({ name: kind.name, data: payload as object })),
          { db: sqlThrough(executor) },
        );
      }
    },

    async fetch(kind, limit) {
      const jobs = await boss.fetch(kind.name, { batchSize: limit, includeMetadata: true });
      return (jobs ?? []).map((job): FetchedJob => ({
        id: job.id,
        payload: job.data,
        retryCount: job.retryCount,
        retryLimit: job.retryLimit,
      }));
    },

    async complete(name, ids) {
      await boss.complete(name, [...ids]);
    },

    async fail(name, id, error) {
      await boss.fail(name, id, { message: error });
    },

    async putOff(name, id, runAt) {
      // pg-boss has no call for it: its fetch counts a retry only for a job started before (started_on)
      await query(
        `UPDATE ${PG_BOSS_SCHEMA}.job SET state = 'retry', start_after = $3, started_on = NULL
         WHERE name = $1 AND id = $2::uuid AND state = 'active'`,
        [name, id, runAt],
      );
    },

    async recover() {
      // Several nodes share the jobs: an attempt of a node that died is failed by maintain() once
      // its kind's expireInSeconds have passed, then retried.
    },

    async maintain() {
      await boss.maintain();
    },

    async counts() {
      const rows = await query<{ name: string; state: JobState; count: number }>(
        `SELECT name, state::text AS state, count(*)::int AS count FROM ${PG_BOSS_SCHEMA}.job GROUP BY name, state
         UNION ALL
         SELECT name, state::text AS state, count(*)::int AS count FROM ${PG_BOSS_SCHEMA}.archive GROUP BY name, state`,
      );
      const total = new Map<string, JobCount>();
      for (const row of rows) {
        const key = `${row.name}\u0000${row.state}`;
        const entry = total.get(key) ?? { name: row.name, state: row.state, count: 0 };
        entry.count += Number(row.count);
        total.set(key, entry);
      }
      return [...total.values()];
    },

    async failed({ limit, offset, name }) {
      const where = `state = 'failed'${name ? ' AND name = $3' : ''}`;
      const params: unknown[] = [limit, offset, ...(name ? [name] : [])];
      const items = await query<{
        id: string;
        name: string;
        output: { message?: string } | null;
        retryCount: number;
        data: unknown;
        createdOn: Date;
        completedOn: Date | null;
      }>(
        `SELECT id, name, output, retry_count AS "retryCount", data, created_on AS "createdOn", completed_on AS "completedOn"
         FROM ${PG_BOSS_SCHEMA}.job WHERE ${where} ORDER BY completed_on DESC NULLS LAST, id LIMIT $1 OFFSET $2`,
        params,
      );
      const [{ total }] = await query<{ total: number }>(
        `SELECT count(*)::int AS total FROM ${PG_BOSS_SCHEMA}.job WHERE ${name ? "state = 'failed' AND name = $1" : "state = 'failed'"}`,
        name ? [name] : [],
      );
      return {
        total: Number(total),
        items: items.map((row): FailedJob => ({
          id: row.id,
          name: row.name,
          error: typeof row.output?.message === 'string' ? row.output.message : null,
          attempts: row.retryCount + 1,
          payload: row.data,
          createdAt: new Date(row.createdOn).toISOString(),
          failedAt: row.completedOn ? new Date(row.completedOn).toISOString() : null,
        })),
      };
    },

    async retry(name, id) {
      if (!isUuid(id)) return false;
      // pg-boss answers how many it affected (its type says nothing)
      const result = (await boss.retry(name, id)) as unknown as { affected: number };
      return result.affected === 1;
    },

    async discard(name, id) {
      if (!isUuid(id)) return false;
      const rows = await query<{ id: string }>(
        `DELETE FROM ${PG_BOSS_SCHEMA}.job WHERE name = $1 AND id = $2::uuid AND state = 'failed' RETURNING id`,
        [name, id],
      );
      return rows.length === 1;
    },

    async close() {
      if (prepared) await prepared.catch(() => {});
      // pg-boss holds no connection of its own (it runs through the portal's pool) and no timer
    },
  };
}

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
