import { type Actor, jobActor } from '../actor';
import type { AppContext, Logger } from '../context';
import type { JobRunner, QueuedJobs, ScheduledJob } from './types';

interface Scheduled {
  job: ScheduledJob;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  /** asked to run while running: one more pass follows, so work queued meanwhile is not missed */
  again: boolean;
}

/**
 * Runs jobs in this process, with timers. Enough for one node; when several nodes must share queued
 * work, pg-boss on PostgreSQL replaces it behind the same interface (decision 012). Scheduled jobs
 * run on every node, so each must be safe to run twice at once (purges are; the outbox claims rows).
 * Queued work lives in memory and is lost if the process dies: use it only for work that may be lost.
 */
export function createInProcessRunner(log: Logger): JobRunner {
  const scheduled = new Map<string, Scheduled>();
  const handlers = new Map<string, (ctx: AppContext, actor: Actor, payload: unknown) => Promise<unknown>>();
  const pending = new Set<Promise<void>>();
  const waiting: { name: string; payload: unknown }[] = [];
  let ctx: AppContext | null = null;

  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  function runScheduled(entry: Scheduled): void {
    if (!ctx) return;
    if (entry.running) {
      entry.again = true;
      return;
    }
    const context = ctx;
    entry.running = (async () => {
      do {
        entry.again = false;
        try {
          await entry.job.run(context, jobActor(entry.job.name));
        } catch (error) {
          log.error({ err: error, job: entry.job.name }, `job failed: ${entry.job.name}`);
        }
      } while (entry.again && ctx);
    })().finally(() => {
      entry.running = null;
    });
    track(entry.running);
  }

  function runQueued(name: string, payload: unknown): void {
    const handler = handlers.get(name);
    if (!ctx || !handler) return;
    const context = ctx;
    track(
      Promise.resolve()
        .then(() => handler(context, jobActor(name), payload))
        .then(
          () => {},
          (error: unknown) => log.error({ err: error, job: name }, `job failed: ${name}`),
        ),
    );
  }

  return {
    schedule(job) {
      if (scheduled.has(job.name)) throw new Error(`job ${job.name} is scheduled twice`);
      scheduled.set(job.name, { job, timer: null, running: null, again: false });
    },

    handle(name, handler) {
      handlers.set(name, handler as (ctx: AppContext, actor: Actor, payload: unknown) => Promise<unknown>);
    },

    enqueue<N extends Extract<keyof QueuedJobs, string>>(name: N, payload: QueuedJobs[N]) {
      if (!handlers.has(name)) throw new Error(`no handler for job ${name}`);
      if (ctx) runQueued(name, payload);
      else waiting.push({ name, payload });
    },

    trigger(name) {
      const entry = scheduled.get(name);
      if (!entry) throw new Error(`unknown job ${name}`);
      runScheduled(entry);
    },

    start(context) {
      if (ctx) return;
      ctx = context;
      for (const entry of scheduled.values()) {
        entry.timer = setInterval(() => runScheduled(entry), entry.job.everyMs);
        // timers alone do not keep the process up: the server does
        entry.timer.unref();
        runScheduled(entry);
      }
      for (const { name, payload } of waiting.splice(0)) runQueued(name, payload);
    },

    async stop() {
      ctx = null;
      for (const entry of scheduled.values()) {
        if (entry.timer) clearInterval(entry.timer);
        entry.timer = null;
      }
      await this.idle();
    },

    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
