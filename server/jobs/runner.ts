import cronParser from 'cron-parser';
import { type Actor, jobActor } from '../actor';
import type { AppContext, Logger } from '../context';
import type { DB } from '../db';
import { coalesce } from '../db/coalesce';
import { createPace } from './pace';
import * as schedulesStore from './schedules-store';
import type { JobStore, KindSettings, FetchedJob } from './store';
import {
  type JobKind,
  JobPutOff,
  type JobRunner,
  type QueuedJobName,
  type QueuedJobs,
  type ScheduledJob,
} from './types';

const DEFAULTS = { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 300, concurrency: 5 };

/** How often a node looks for due jobs and schedules when nothing woke it (a local enqueue does). */
const POLL_MS = 2_000;
/** How often a node runs the store's maintenance (attempts past their time, old finished jobs). */
const MAINTAIN_MS = 60_000;

interface Kind {
  settings: KindSettings;
  concurrency: number;
  yieldsToRequests: boolean;
  run(ctx: AppContext, actor: Actor, payload: unknown): Promise<unknown>;
  onFinalFailure?(ctx: AppContext, actor: Actor, payload: unknown, error: string): Promise<void>;
  /** marks an attempt completed, gathered with the others that end meanwhile (decision 075) */
  complete: (id: string) => Promise<unknown>;
  /** attempts of this kind running on this node */
  running: number;
  /** slots held by fetches under way (a tick's and a refill's may overlap): never more than the width */
  reserved: number;
  /** a look for more of this kind is under way (refill), and another was asked for meanwhile */
  refilling: boolean;
  refillAgain: boolean;
}

interface Schedule {
  name: string;
  cron: string;
  timeZone: string;
}

/** The first slot of `cron` strictly after `after`. */
export function nextSlot(schedule: Pick<Schedule, 'cron' | 'timeZone'>, after: Date): Date {
  return cronParser.parseExpression(schedule.cron, { currentDate: after, tz: schedule.timeZone }).next().toDate();
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 4000);

/**
 * The one runner of background work (decision 063), over either store: it fetches due jobs of every
 * kind (on a timer, and at once when this node queued something), runs each attempt with a time bound,
 * completes or fails it, calls the kind's final-failure hook after the last attempt, and fires due
 * schedules, once per slot across nodes. This is the only timer of the portal's background work.
 */
export function createJobRunner(deps: {
  store: JobStore;
  log: Logger;
  /** the context jobs run with (the app's, once built) */
  context: () => AppContext;
  pollMs?: number;
  /** true while the node answers requests: kinds that yield to them run one attempt at a time */
  busy?: () => boolean;
}): JobRunner {
  const { store, log } = deps;
  const pollMs = deps.pollMs ?? POLL_MS;
  const kinds = new Map<string, Kind>();
  const schedules = new Map<string, Schedule>();
  const inFlight = new Set<Promise<void>>();
  let prepared: Promise<void> | null = null;
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  let looping: Promise<void> | null = null;
  let wakeAgain = false;
  let lastMaintenance = 0;
  let lastFiring = 0;
  // requests go between jobs: on SQLite nothing else lets them (pace.ts)
  const pace = createPace();

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    return work;
  };

  function declare(
    settings: KindSettings,
    entry: Omit<Kind, 'settings' | 'running' | 'reserved' | 'refilling' | 'refillAgain' | 'complete'>,
  ) {
    if (kinds.has(settings.name)) throw new Error(`job ${settings.name} is declared twice`);
    if (prepared) throw new Error(`job ${settings.name} is declared after the runner was prepared`);
    const complete = coalesce<string>((ids) => store.complete(settings.name, ids));
    kinds.set(settings.name, {
      settings,
      running: 0,
      reserved: 0,
      refilling: false,
      refillAgain: false,
      complete,
      ...entry,
    });
  }

  /** One attempt: completed, or failed (to be retried, or for good with the kind's hook). */
  async function attempt(kind: Kind, job: FetchedJob): Promise<void> {
    await pace();
    const { name } = kind.settings;
    const ctx = deps.context();
    const actor = jobActor(name);
    let bound: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      bound = setTimeout(
        () => reject(new Error(`the attempt ran past ${kind.settings.expireInSeconds} s`)),
        kind.settings.expireInSeconds * 1000,
      );
    });
    const began = process.hrtime.bigint();
    const took = () => Number(process.hrtime.bigint() - began) / 1e9;
    try {
      await Promise.race([kind.run(ctx, actor, job.payload), expired]);
      clearTimeout(bound);
      ctx.metrics?.jobDuration.observe({ name }, took());
      await kind.complete(job.id);
    } catch (error) {
      clearTimeout(bound);
      if (error instanceof JobPutOff) {
        log.debug({ job: name, jobId: job.id, seconds: error.seconds }, `job put off: ${error.message}`);
        await store.putOff(name, job.id, new Date(Date.now() + error.seconds * 1000)).catch((failure: unknown) => {
          // left active: the store's maintenance fails it at its time bound, and it is retried
          log.error({ err: failure, job: name, jobId: job.id }, 'could not put a job off');
        });
        // looked for again when it is due, rather than at the next poll
        setTimeout(wake, error.seconds * 1000 + 10).unref();
        return;
      }
      ctx.metrics?.jobDuration.observe({ name }, took());
      ctx.metrics?.jobFailures.inc({ name });
      const message = messageOf(error);
      const last = job.retryCount >= job.retryLimit;
      log.error(
        { err: error, job: name, jobId: job.id, attempt: job.retryCount + 1, last },
        last ? `job failed for good: ${name}` : `job failed, retried later: ${name}`,
      );
      await store.fail(name, job.id, message).catch((failure: unknown) => {
        log.error({ err: failure, job: name, jobId: job.id }, 'could not record a job failure');
      });
      if (last && kind.onFinalFailure) {
        await kind.onFinalFailure(ctx, actor, job.payload, message).catch((failure: unknown) => {
          log.error({ err: failure, job: name, jobId: job.id }, `final-failure hook failed: ${name}`);
        });
      }
    }
  }

  /** Fetches and starts what this node has room for of one kind; the attempts started. */
  async function fill(kind: Kind, wait: boolean): Promise<Promise<void>[]> {
    await pace();
    // a drain (tests, the command line) runs everything at full width; requests come first otherwise
    const width = !wait && kind.yieldsToRequests && deps.busy?.() ? 1 : kind.concurrency;
    const room = width - kind.running - kind.reserved;
    if (room <= 0) return [];
    kind.reserved += room;
    let jobs: FetchedJob[];
    try {
      jobs = await store.fetch(kind.settings, room);
    } catch (error) {
      log.warn({ err: error, job: kind.settings.name }, 'could not fetch jobs; trying again later');
      return [];
    } finally {
      kind.reserved -= room;
    }
    return jobs.map((job) => {
      kind.running++;
      return track(
        attempt(kind, job).finally(() => {
          kind.running--;
          // room again: look for more of this kind at once rather than at the next tick, once half of
          // its slots are free (one fetch for several jobs rather than one per job)
          const room = kind.concurrency - kind.running;
          if (running && !wait && (room * 2 >= kind.concurrency || kind.running === 0)) refill(kind);
        }),
      );
    });
  }

  /**
   * Looks for more of one kind after an attempt ended, coalesced: attempts ending while a look is under
   * way make one more look, not one each. Only that kind is asked (a look at every kind after every mail
   * would cost a query per kind per mail); a look that finds nothing waits for the next tick or wake.
   */
  function refill(kind: Kind): void {
    if (kind.refilling) {
      kind.refillAgain = true;
      return;
    }
    kind.refilling = true;
    void (async () => {
      try {
        do {
          kind.refillAgain = false;
          if ((await fill(kind, false)).length === 0) break;
        } while (kind.refillAgain && running);
      } finally {
        kind.refilling = false;
      }
    })();
  }

  /** Fetches and runs what this node has room for, of every kind; returns how many attempts it started. */
  async function pass(wait: boolean): Promise<number> {
    const batches: Promise<void>[] = [];
    for (const kind of kinds.values()) batches.push(...(await fill(kind, wait)));
    if (wait) await Promise.all(batches);
    return batches.length;
  }

  /** Queues the run of every schedule whose slot has come, moving the slot on in the same transaction. */
  async function fireSchedules(): Promise<void> {
    // slots are minutes apart: a look per second is plenty, however often the loop is woken
    if (schedules.size === 0 || Date.now() - lastFiring < 1_000) return;
    lastFiring = Date.now();
    const ctx = deps.context();
    const now = new Date();
    const known = new Map((await schedulesStore.all(ctx.db)).map((row) => [row.name, row]));
    for (const schedule of schedules.values()) {
      let row = known.get(schedule.name);
      if (!row || row.cron !== schedule.cron || row.timeZone !== schedule.timeZone) {
        // First seen, or its timing changed: its next slot is now (a new schedule runs at once). Only
        // one node's write counts, the others read it back.
        await schedulesStore.retime(ctx.db, schedule, row ?? null, now.toISOString());
        row = await schedulesStore.one(ctx.db, schedule.name);
        if (!row) continue;
      }
      const due = row.nextRunAt;
      if (new Date(due) > now) continue;
      const next = nextSlot(schedule, now).toISOString();
      await ctx.db.transaction().execute(async (trx) => {
        // another node moved it first: that node queues this slot's run
        if (!(await schedulesStore.move(trx, schedule.name, due, next))) return;
        await store.insert(trx, kinds.get(schedule.name)!.settings, { slot: due }, {});
      });
    }
  }

  async function loop(): Promise<void> {
    do {
      wakeAgain = false;
      try {
        if (Date.now() - lastMaintenance >= MAINTAIN_MS) {
          lastMaintenance = Date.now();
          await store.maintain();
        }
        await fireSchedules();
      } catch (error) {
        log.warn({ err: error }, 'background work: could not fire schedules or maintain; trying again later');
      }
      await pass(false);
    } while (wakeAgain && running);
  }

  function wake(): void {
    if (!running) return;
    if (looping) {
      wakeAgain = true;
      return;
    }
    looping = loop().finally(() => {
      looping = null;
    });
  }

  return {
    define<N extends QueuedJobName>(kind: JobKind<N>) {
      declare(
        {
          name: kind.name,
          retryLimit: kind.retryLimit ?? DEFAULTS.retryLimit,
          retryDelaySeconds: kind.retryDelaySeconds ?? DEFAULTS.retryDelaySeconds,
          retryBackoff: kind.retryBackoff ?? DEFAULTS.retryBackoff,
          expireInSeconds: kind.expireInSeconds ?? DEFAULTS.expireInSeconds,
          singleton: kind.singleton ?? false,
        },
        {
          concurrency: kind.concurrency ?? DEFAULTS.concurrency,
          yieldsToRequests: kind.yieldsToRequests ?? false,
          run: (ctx, actor, payload) => kind.run(ctx, actor, payload as QueuedJobs[N]),
          onFinalFailure: kind.onFinalFailure
            ? (ctx, actor, payload, error) => kind.onFinalFailure!(ctx, actor, payload as QueuedJobs[N], error)
            : undefined,
        },
      );
    },

    schedule(job: ScheduledJob) {
      // a schedule's runs are jobs of its name; two nodes never run one slot twice (fireSchedules)
      nextSlot({ cron: job.cron, timeZone: job.timeZone ?? 'UTC' }, new Date()); // throws on a bad expression
      declare(
        {
          name: job.name,
          retryLimit: job.retryLimit ?? 2,
          retryDelaySeconds: job.retryDelaySeconds ?? 60,
          retryBackoff: job.retryBackoff ?? true,
          expireInSeconds: job.expireInSeconds ?? DEFAULTS.expireInSeconds,
          singleton: false,
        },
        { concurrency: 1, yieldsToRequests: false, run: (ctx, actor) => job.run(ctx, actor) },
      );
      schedules.set(job.name, { name: job.name, cron: job.cron, timeZone: job.timeZone ?? 'UTC' });
    },

    async enqueue<N extends QueuedJobName>(
      executor: DB,
      name: N,
      payload: QueuedJobs[N],
      options: { runAt?: Date; singletonKey?: string } = {},
    ) {
      const kind = kinds.get(name);
      if (!kind) throw new Error(`no job ${name} is declared`);
      if (kind.settings.singleton !== (options.singletonKey !== undefined)) {
        throw new Error(`job ${name} ${kind.settings.singleton ? 'needs' : 'takes no'} singleton key`);
      }
      const queued = await store.insert(executor, kind.settings, payload, options);
      // In a transaction, the job is seen once it commits: look again a moment later too.
      if (queued && running && !options.runAt) {
        wake();
        setTimeout(wake, 50).unref();
      }
      return queued;
    },

    async enqueueMany(executor, name, payloads) {
      const kind = kinds.get(name);
      if (!kind) throw new Error(`no job ${name} is declared`);
      if (kind.settings.singleton) throw new Error(`job ${name} needs singleton keys: enqueue them one by one`);
      if (payloads.length === 0) return;
      await store.insertMany(executor, kind.settings, payloads);
      if (running) {
        wake();
        setTimeout(wake, 50).unref();
      }
    },

    async trigger(executor, name) {
      const kind = kinds.get(name);
      if (!kind || !schedules.has(name)) throw new Error(`no scheduled job ${name}`);
      await store.insert(executor, kind.settings, { slot: new Date().toISOString() }, {});
      wake();
    },

    prepare() {
      prepared ??= store.prepare([...kinds.values()].map((kind) => kind.settings));
      return prepared;
    },

    async start() {
      if (running) return;
      await this.prepare();
      await store.recover();
      running = true;
      timer = setInterval(wake, pollMs);
      // the server keeps the process up, not this timer
      timer.unref();
      wake();
    },

    async stop() {
      running = false;
      if (timer) clearInterval(timer);
      timer = null;
      await looping;
      await this.idle();
    },

    async drain() {
      await this.prepare();
      let total = 0;
      for (;;) {
        const ran = await pass(true);
        total += ran;
        if (ran === 0) return total;
      }
    },

    async idle() {
      while (inFlight.size > 0 || looping) await Promise.allSettled([...inFlight, looping]);
    },

    counts: () => store.counts(),
    failed: (options) => store.failed(options),
    retry: (name, id) => store.retry(name, id),
    discard: (name, id) => store.discard(name, id),
    names: () => [...kinds.keys()],
  };
}
