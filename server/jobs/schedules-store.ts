import type { DB } from '../db';

/**
 * The `job_schedules` rows: each recurring job's next slot (runner.ts fires them). A slot moves on
 * only from the value a node read, so of several nodes seeing it due, one queues its run.
 */

export function all(db: DB) {
  return db.selectFrom('jobSchedules').selectAll().execute();
}

export function one(db: DB, name: string) {
  return db.selectFrom('jobSchedules').selectAll().where('name', '=', name).executeTakeFirst();
}

/** A schedule first seen (`known` null) or whose timing changed: next slot `at`, unless another node wrote it. */
export async function retime(
  db: DB,
  schedule: { name: string; cron: string; timeZone: string },
  known: { cron: string; timeZone: string } | null,
  at: string,
): Promise<void> {
  const values = { cron: schedule.cron, timeZone: schedule.timeZone, nextRunAt: at };
  if (!known) {
    await db
      .insertInto('jobSchedules')
      .values({ name: schedule.name, ...values })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .execute();
    return;
  }
  await db
    .updateTable('jobSchedules')
    .set(values)
    .where('name', '=', schedule.name)
    .where('cron', '=', known.cron)
    .where('timeZone', '=', known.timeZone)
    .execute();
}

/** Moves a due slot `from` to `to`; false when another node moved it first. */
export async function move(db: DB, name: string, from: string, to: string): Promise<boolean> {
  const moved = await db
    .updateTable('jobSchedules')
    .set({ nextRunAt: to })
    .where('name', '=', name)
    .where('nextRunAt', '=', from)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) === 1;
}
