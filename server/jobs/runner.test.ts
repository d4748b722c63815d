import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { createTestApp, TEST_DIALECT, type TestApp } from '../test/harness';
import { makeJobsDue } from '../test/jobs';
import { storeFor } from './index';
import { createJobRunner, nextSlot } from './runner';
import { JobPutOff, type JobRunner } from './types';

/**
 * The contract of background work, on the store of the database under test (pg-boss on PostgreSQL, the
 * jobs table on SQLite): the same file runs in both passes.
 */
declare module './types' {
  interface QueuedJobs {
    'test.tx': { n: number };
    'test.single': { n: number };
    'test.flaky': { n: number };
    'test.putoff': { n: number };
    'test.hang': { n: number };
    'test.killed': { n: number };
    'test.many': { n: number };
    'test.bulk': { n: number };
    'test.yields': { n: number };
  }
}

let t: TestApp;
let ctx: AppContext;
const runners: JobRunner[] = [];
beforeAll(async () => {
  t = await createTestApp();
  ctx = t.app.ctx;
});
afterAll(async () => {
  for (const runner of runners) await runner.stop();
  await t?.close();
});

function runner(pollMs = 50, busy?: () => boolean): JobRunner {
  const made = createJobRunner({ store: storeFor(t.database), log: t.app.log, context: () => ctx, pollMs, busy });
  runners.push(made);
  return made;
}

const countOf = async (jobs: JobRunner, name: string, state: string) =>
  (await jobs.counts()).filter((c) => c.name === name && c.state === state).reduce((sum, c) => sum + c.count, 0);

async function until(check: () => Promise<boolean> | boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe(`background work on ${TEST_DIALECT}`, () => {
  it('queues a job only when the transaction that queued it commits', async () => {
    const jobs = runner();
    const seen: number[] = [];
    jobs.define({
      name: 'test.tx',
      run: async (_ctx, actor, { n }) => {
        expect(actor).toEqual({ kind: 'job', name: 'test.tx' });
        seen.push(n);
      },
    });
    await jobs.prepare();
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await jobs.enqueue(trx, 'test.tx', { n: 1 });
        throw new Error('rolled back');
      })
      .catch(() => {});
    await ctx.db.transaction().execute((trx) => jobs.enqueue(trx, 'test.tx', { n: 2 }));
    expect(await jobs.drain()).toBe(1);
    expect(seen).toEqual([2]);
    expect(await countOf(jobs, 'test.tx', 'completed')).toBe(1);
    // runAt: not before its time
    await jobs.enqueue(ctx.db, 'test.tx', { n: 3 }, { runAt: new Date(Date.now() + 60_000) });
    expect(await jobs.drain()).toBe(0);
    await makeJobsDue(ctx.db, 'test.tx');
    expect(await jobs.drain()).toBe(1);
    expect(seen).toEqual([2, 3]);
  });

  it('queues many jobs at once in the caller’s transaction, each run once, none when it rolls back', async () => {
    const jobs = runner();
    const seen: number[] = [];
    jobs.define({ name: 'test.bulk', concurrency: 20, run: async (_ctx, _actor, { n }) => void seen.push(n) });
    await jobs.prepare();
    const payloads = Array.from({ length: 1_234 }, (_, n) => ({ n }));
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await jobs.enqueueMany(trx, 'test.bulk', payloads);
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await jobs.drain()).toBe(0);
    // more than one statement's slice on either engine
    await ctx.db.transaction().execute((trx) => jobs.enqueueMany(trx, 'test.bulk', payloads));
    await jobs.enqueueMany(ctx.db, 'test.bulk', []);
    expect(await jobs.drain()).toBe(1_234);
    expect(seen.sort((a, b) => a - b)).toEqual(payloads.map(({ n }) => n));
    expect(await countOf(jobs, 'test.bulk', 'completed')).toBe(1_234);
  });

  it('runs a kind that yields to requests one attempt at a time while the node answers requests', async () => {
    let answering = true;
    const jobs = runner(50, () => answering);
    let running = 0;
    let widest = 0;
    let done = 0;
    jobs.define({
      name: 'test.yields',
      concurrency: 6,
      yieldsToRequests: true,
      run: async () => {
        running++;
        widest = Math.max(widest, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        done++;
      },
    });
    await jobs.prepare();
    await jobs.enqueueMany(
      ctx.db,
      'test.yields',
      Array.from({ length: 30 }, (_, n) => ({ n })),
    );
    await jobs.start();
    await until(() => done >= 6);
    expect(widest).toBe(1);

    answering = false; // the node is quiet: the kind runs at its full width again
    await until(() => done === 30);
    expect(widest).toBeGreaterThan(1);
    expect(widest).toBeLessThanOrEqual(6);
    await jobs.stop();
  });

  it('keeps one waiting job per singleton key, and refuses a key on other kinds', async () => {
    const jobs = runner();
    const seen: number[] = [];
    jobs.define({ name: 'test.single', singleton: true, run: async (_ctx, _actor, { n }) => void seen.push(n) });
    await jobs.prepare();
    expect(await jobs.enqueue(ctx.db, 'test.single', { n: 1 }, { singletonKey: 'user:1' })).toBe(true);
    expect(await jobs.enqueue(ctx.db, 'test.single', { n: 2 }, { singletonKey: 'user:1' })).toBe(false);
    expect(await jobs.enqueue(ctx.db, 'test.single', { n: 3 }, { singletonKey: 'user:2' })).toBe(true);
    await jobs.drain();
    expect(seen.sort()).toEqual([1, 3]);
    // once it ran, the key may wait again
    expect(await jobs.enqueue(ctx.db, 'test.single', { n: 4 }, { singletonKey: 'user:1' })).toBe(true);
    await expect(jobs.enqueue(ctx.db, 'test.single', { n: 5 })).rejects.toThrow(/needs singleton key/);
    await expect(jobs.enqueueMany(ctx.db, 'test.single', [{ n: 5 }])).rejects.toThrow(/needs singleton keys/);
    await expect(jobs.enqueue(ctx.db, 'test.tx' as never, { n: 5 } as never)).rejects.toThrow(/no job test\.tx/);
  });

  it('retries a failing job with backoff, then calls its final-failure hook once; operators retry or discard it', async () => {
    const jobs = runner();
    let attempts = 0;
    let succeedFrom = Infinity;
    const finalFailures: string[] = [];
    jobs.define({
      name: 'test.flaky',
      retryLimit: 2,
      retryDelaySeconds: 60,
      run: async () => {
        attempts++;
        if (attempts < succeedFrom) throw new Error(`attempt ${attempts} failed`);
      },
      onFinalFailure: async (_ctx, _actor, { n }, error) => void finalFailures.push(`${n}: ${error}`),
    });
    await jobs.prepare();
    await jobs.enqueue(ctx.db, 'test.flaky', { n: 7 });
    expect(await jobs.drain()).toBe(1);
    expect(await countOf(jobs, 'test.flaky', 'retry')).toBe(1);
    // backoff: the retry is not due yet
    expect(await jobs.drain()).toBe(0);
    await makeJobsDue(ctx.db, 'test.flaky');
    expect(await jobs.drain()).toBe(1);
    expect(finalFailures).toEqual([]);
    await makeJobsDue(ctx.db, 'test.flaky');
    expect(await jobs.drain()).toBe(1);
    expect(attempts).toBe(3);
    expect(finalFailures).toEqual(['7: attempt 3 failed']);
    await makeJobsDue(ctx.db, 'test.flaky');
    expect(await jobs.drain()).toBe(0);

    const { items, total } = await jobs.failed({ limit: 10, offset: 0, name: 'test.flaky' });
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({ name: 'test.flaky', error: 'attempt 3 failed', attempts: 3, payload: { n: 7 } });
    expect(await jobs.retry('test.flaky', 'not-an-id')).toBe(false);
    succeedFrom = 4;
    expect(await jobs.retry('test.flaky', items[0].id)).toBe(true);
    expect(await jobs.retry('test.flaky', items[0].id)).toBe(false);
    expect(await jobs.drain()).toBe(1);
    expect(await countOf(jobs, 'test.flaky', 'completed')).toBe(1);
    expect(await jobs.discard('test.flaky', items[0].id)).toBe(false);

    attempts = 0;
    succeedFrom = Infinity;
    await jobs.enqueue(ctx.db, 'test.flaky', { n: 8 });
    for (let i = 0; i < 3; i++) {
      await makeJobsDue(ctx.db, 'test.flaky');
      await jobs.drain();
    }
    const failed = await jobs.failed({ limit: 10, offset: 0, name: 'test.flaky' });
    expect(failed.total).toBe(1);
    expect(await jobs.discard('test.flaky', failed.items[0].id)).toBe(true);
    expect((await jobs.failed({ limit: 10, offset: 0, name: 'test.flaky' })).total).toBe(0);
  });

  it('puts a job off without spending an attempt, and runs it again when it is due', async () => {
    const jobs = runner();
    let calls = 0;
    const finalFailures: string[] = [];
    jobs.define({
      name: 'test.putoff',
      retryLimit: 1,
      retryDelaySeconds: 60,
      run: async () => {
        calls++;
        // put off more often than it may be retried, then a failure, then a success
        if (calls <= 3) throw new JobPutOff(60, 'not now');
        if (calls === 4) throw new Error('a real failure');
      },
      onFinalFailure: async (_ctx, _actor, _payload, error) => void finalFailures.push(error),
    });
    await jobs.prepare();
    await jobs.enqueue(ctx.db, 'test.putoff', { n: 1 });
    expect(await jobs.drain()).toBe(1);
    expect(await countOf(jobs, 'test.putoff', 'retry')).toBe(1);
    // not before its time
    expect(await jobs.drain()).toBe(0);
    for (let i = 0; i < 3; i++) {
      await makeJobsDue(ctx.db, 'test.putoff');
      expect(await jobs.drain()).toBe(1);
    }
    // the failure was its first attempt: it is retried, and succeeds
    expect(calls).toBe(4);
    expect(finalFailures).toEqual([]);
    expect(await countOf(jobs, 'test.putoff', 'retry')).toBe(1);
    await makeJobsDue(ctx.db, 'test.putoff');
    expect(await jobs.drain()).toBe(1);
    expect(calls).toBe(5);
    expect(finalFailures).toEqual([]);
    expect(await countOf(jobs, 'test.putoff', 'completed')).toBe(1);
  });

  it('fails an attempt that runs past its time, and retries it', async () => {
    const jobs = runner();
    let calls = 0;
    jobs.define({
      name: 'test.hang',
      expireInSeconds: 1,
      retryDelaySeconds: 1,
      retryBackoff: false,
      run: async () => {
        calls++;
        if (calls === 1) await new Promise(() => {});
      },
    });
    await jobs.prepare();
    await jobs.enqueue(ctx.db, 'test.hang', { n: 1 });
    await jobs.drain();
    expect(await countOf(jobs, 'test.hang', 'retry')).toBe(1);
    await makeJobsDue(ctx.db, 'test.hang');
    await jobs.drain();
    expect(calls).toBe(2);
    expect(await countOf(jobs, 'test.hang', 'completed')).toBe(1);
  });

  it('takes up after restart the work a killed node was running', async () => {
    const jobs = runner();
    const seen: number[] = [];
    jobs.define({
      name: 'test.killed',
      expireInSeconds: 1,
      retryDelaySeconds: 1,
      retryBackoff: false,
      run: async (_ctx, _actor, { n }) => void seen.push(n),
    });
    await jobs.prepare();
    await jobs.enqueue(ctx.db, 'test.killed', { n: 1 });
    // a node fetched it and died before finishing: the job is left active
    const store = storeFor(t.database);
    const [taken] = await store.fetch(
      {
        name: 'test.killed',
        retryLimit: 5,
        retryDelaySeconds: 1,
        retryBackoff: false,
        expireInSeconds: 1,
        singleton: false,
      },
      1,
    );
    expect(taken.payload).toEqual({ n: 1 });
    expect(await jobs.drain()).toBe(0);
    // SQLite: the one node's restart makes it due; PostgreSQL: its time ran out (1 s), maintenance fails
    // it and it is retried (after its retry delay, 1 s)
    if (TEST_DIALECT === 'postgres') await new Promise((resolve) => setTimeout(resolve, 1_100));
    await jobs.start();
    await until(() => seen.length === 1);
    await jobs.stop();
    expect(seen).toEqual([1]);
  });

  it('two runners on one database run each job once', async () => {
    const a = runner(20);
    const b = runner(20);
    const seen: number[] = [];
    for (const jobs of [a, b]) {
      jobs.define({
        name: 'test.many',
        concurrency: 3,
        run: async (_ctx, _actor, { n }) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          seen.push(n);
        },
      });
      await jobs.prepare();
    }
    for (let n = 0; n < 40; n++) await a.enqueue(ctx.db, 'test.many', { n });
    await Promise.all([a.start(), b.start()]);
    await until(() => seen.length >= 40);
    await Promise.all([a.stop(), b.stop()]);
    expect(seen.sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, n) => n));
  });

  it('runs a new schedule at once, each slot once across nodes, and a slot missed while down once', async () => {
    const runs: string[] = [];
    const make = () => {
      const jobs = runner(20);
      jobs.schedule({ name: 'test.hourly', cron: '0 * * * *', run: async () => void runs.push('run') });
      return jobs;
    };
    const a = make();
    const b = make();
    await Promise.all([a.start(), b.start()]);
    await until(() => runs.length === 1);
    const row = await ctx.db
      .selectFrom('jobSchedules')
      .selectAll()
      .where('name', '=', 'test.hourly')
      .executeTakeFirstOrThrow();
    expect(row.nextRunAt).toBe(nextSlot({ cron: '0 * * * *', timeZone: 'UTC' }, new Date()).toISOString());
    await Promise.all([a.stop(), b.stop()]);

    // both nodes were down over two slots: one run when they come back, not two, not one per node
    await ctx.db
      .updateTable('jobSchedules')
      .set({ nextRunAt: new Date(Date.now() - 2 * 3600_000).toISOString() })
      .where('name', '=', 'test.hourly')
      .execute();
    const c = make();
    const d = make();
    await Promise.all([c.start(), d.start()]);
    await until(() => runs.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await Promise.all([c.stop(), d.stop()]);
    expect(runs).toHaveLength(2);
  });

  it('computes slots in the schedule’s time zone, across a daylight-saving change', () => {
    // Paris leaves summer time on 2026-10-25 at 03:00 (01:00 UTC): 02:30 local is 00:30 UTC that day,
    // 01:30 UTC the day after
    const daily = { cron: '30 2 * * *', timeZone: 'Europe/Paris' };
    expect(nextSlot(daily, new Date('2026-10-24T12:00:00Z')).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(nextSlot(daily, new Date('2026-10-25T12:00:00Z')).toISOString()).toBe('2026-10-26T01:30:00.000Z');
  });
});
