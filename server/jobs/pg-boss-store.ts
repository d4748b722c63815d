import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import type { DB } from '../db';
import { type FetchedJob, type JobStore, type KindSettings } from './store';
import type { FailedJob, JobCount, JobState } from './types';

/** pg-boss's schema in the portal's database. */
export const PG_BOSS_SCHEMA = 'pgboss';

/** Completed jobs leave the queue's table after an hour (kept in the archive), all go after 7 days. */
const ARCHIVE_COMPLETED_AFTER_SECONDS = 60 * 60;
/** Failed jobs stay in the queue's table a month, where operators retry or discard them. */
const ARCHIVE_FAILED_AFTER_SECONDS = 30 * 24 * 60 * 60;
const DELETE_AFTER_DAYS = 7;

/**
 * pg-boss runs its SQL through this: the portal's own pool (no second one), with Kysely's plugins
 * left out (pg-boss names its columns itself). Given a transaction, the SQL runs in it: that is how a
 * job is queued in the caller's transaction.
 */
function sqlThrough(executor: DB): PgBoss.Db {
  const raw = executor.withoutPlugins();
  return {
    async executeSql(text: string, values?: unknown[]) {
      const result = await raw.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as unknown[] } as never;
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
  let started: Promise<unknown> | null = null;
  const raw = db.withoutPlugins();
  const query = async <R>(text: string, values: unknown[] = []) =>
    (await raw.executeQuery(CompiledQuery.raw(text, values))).rows as R[];

  return {
    async prepare(kinds) {
      started ??= boss.start();
      await started;
      for (const kind of kinds) {
        const options = queueOptions(kind);
        if (await boss.getQueue(kind.name)) {
          await boss.updateQueue(kind.name, options);
          continue;
        }
        // Nodes starting together would each create the queue (a partition table): one at a time.
        await db.transaction().execute(async (trx) => {
          const through = sqlThrough(trx);
          const run = (text: string, values: unknown[]) => through.executeSql(text, values);
          await run(`SELECT pg_advisory_xact_lock(hashtext('${PG_BOSS_SCHEMA}.create_queue'))`, []);
          const { rows } = (await run(`SELECT 1 FROM ${PG_BOSS_SCHEMA}.queue WHERE name = $1`, [kind.name])) as {
            rows: unknown[];
          };
          if (rows.length === 0) await run(`SELECT ${PG_BOSS_SCHEMA}.create_queue($1, $2)`, [kind.name, options]);
        });
      }
    },

    async insert(executor, kind, payload, options) {
      const id = await boss.send(kind.name, payload as object, {
        db: sqlThrough(executor),
        ...(options.runAt ? { startAfter: options.runAt } : {}),
        ...(options.singletonKey !== undefined ? { singletonKey: options.singletonKey } : {}),
      });
      return id !== null;
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

    async complete(name, id) {
      await boss.complete(name, id);
    },

    async fail(name, id, error) {
      await boss.fail(name, id, { message: error });
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
      if (started) await started.catch(() => {});
      // pg-boss holds no connection of its own (it runs through the portal's pool) and no timer
    },
  };
}

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
