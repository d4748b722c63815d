import type { Actor } from '../actor';
import type { AppContext } from '../context';
import type { DB } from '../db';

/**
 * Background work (docs/decisions/063): durable jobs in the database, queued in the transaction of the
 * change that causes them, run by whichever app node fetches them first, retried with backoff. Jobs call
 * services and repositories with the context, like routes do (decision 007), as a job actor named after
 * the job (decision 059): what a job changes is audited as that job's doing.
 */

/**
 * The payload of each kind of queued work, by name, so a wrong payload is a type error. A module that
 * queues work adds its kind here by declaration merging:
 * `declare module '../../jobs/types' { interface QueuedJobs { 'licences.expire': { licenceId: number } } }`
 * Payloads are stored as JSON: plain data only, and never a secret (the Background work page shows them).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface QueuedJobs {}

export type QueuedJobName = Extract<keyof QueuedJobs, string>;

/** How one kind of work is retried and bounded; the same on both engines. */
interface RetryPolicy {
  /** attempts after the first one failed (default 5) */
  retryLimit?: number;
  /** seconds before the first retry (default 30) */
  retryDelaySeconds?: number;
  /** doubles the delay at each retry, with jitter (default true) */
  retryBackoff?: boolean;
  /**
   * An attempt still running after this many seconds counts as failed and is retried (default 300).
   * It is also how soon the work of a node that died mid-attempt is taken up by another node.
   */
  expireInSeconds?: number;
  /** attempts of this kind running at once on one node (default 5) */
  concurrency?: number;
  /**
   * Bulk work that gives way to requests (decision 075): while this node answers a request, at most
   * one attempt of the kind starts at a time, so a backlog (10,000 mails) does not take the cores the
   * requests wait for; it runs at full `concurrency` again as soon as the node is quiet.
   */
  yieldsToRequests?: boolean;
}

export interface JobKind<N extends QueuedJobName = QueuedJobName> extends RetryPolicy {
  name: N;
  run(ctx: AppContext, actor: Actor, payload: QueuedJobs[N]): Promise<unknown>;
  /**
   * Jobs of this kind carry a `singletonKey`, and at most one job per key waits to run at a time: a
   * second enqueue with the key of a waiting job does nothing (a digest window, one pass per slot).
   */
  singleton?: boolean;
  /** Called once when the last attempt failed (its error message), e.g. to tell someone. */
  onFinalFailure?(ctx: AppContext, actor: Actor, payload: QueuedJobs[N], error: string): Promise<void>;
}

/**
 * Recurring work: a cron expression (minute hour day month weekday) in a time zone. Each slot runs once
 * across all nodes; a slot missed while no node ran (downtime) runs once when a node starts, and a
 * schedule seen for the first time runs at once.
 */
export interface ScheduledJob extends RetryPolicy {
  /** unique; also what the log and the Background work page name */
  name: string;
  cron: string;
  /** IANA time zone of the cron expression (default UTC) */
  timeZone?: string;
  run(ctx: AppContext, actor: Actor): Promise<unknown>;
}

/**
 * Thrown by a handler to put its job off without spending an attempt: the job waits `seconds` and runs
 * again as the attempt it was (a webhook endpoint already busy with this node's attempts). It is no
 * failure: no retry is counted, no final-failure hook runs, nothing is logged as an error.
 */
export class JobPutOff extends Error {
  constructor(
    readonly seconds: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'JobPutOff';
  }
}

export interface EnqueueOptions {
  /** not before this moment (default: now) */
  runAt?: Date;
  /** required for (and only for) kinds declared `singleton` */
  singletonKey?: string;
}

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export interface JobCount {
  name: string;
  state: JobState;
  count: number;
}

export interface FailedJob {
  id: string;
  name: string;
  /** the last attempt's error message */
  error: string | null;
  /** attempts made */
  attempts: number;
  payload: unknown;
  createdAt: string;
  failedAt: string | null;
}

export interface JobRunner {
  /** Declares one kind of queued work; before start(). */
  define<N extends QueuedJobName>(kind: JobKind<N>): void;
  /** Declares recurring work; before start(). */
  schedule(job: ScheduledJob): void;
  /**
   * Queues work through `executor`: pass the transaction that makes the change the work follows from,
   * so the job exists exactly when that change commits. Resolves false when a singleton key's job was
   * already waiting.
   */
  enqueue<N extends QueuedJobName>(
    executor: DB,
    name: N,
    payload: QueuedJobs[N],
    options?: EnqueueOptions,
  ): Promise<boolean>;
  /**
   * Queues many jobs of one kind at once, due now, through `executor` as `enqueue` does, in a few
   * statements rather than one per job (a daily run that tells of thousands of licences). Not for kinds
   * with singleton keys.
   */
  enqueueMany<N extends QueuedJobName>(executor: DB, name: N, payloads: readonly QueuedJobs[N][]): Promise<void>;
  /** Queues a run of a scheduled job now, outside its slots (tests, the command line). */
  trigger(executor: DB, name: string): Promise<void>;
  /** Creates or upgrades the engine's storage and declares the kinds; idempotent. Before enqueue. */
  prepare(): Promise<void>;
  /** Starts fetching and running due work on this node, and firing schedules. */
  start(): Promise<void>;
  /** Stops fetching and waits for the attempts in progress. */
  stop(): Promise<void>;
  /**
   * Runs every due job now, in this process, until none is due (tests and the command line; works
   * without start()). Returns how many attempts ran.
   */
  drain(): Promise<number>;
  /** Resolves once no attempt runs on this node. */
  idle(): Promise<void>;
  /** Jobs per name and state, for operators and /metrics. */
  counts(): Promise<JobCount[]>;
  /** Failed jobs, newest first. */
  failed(options: { limit: number; offset: number; name?: string }): Promise<{ items: FailedJob[]; total: number }>;
  /** Queues a failed job again with a fresh set of attempts; false when it is not (or no longer) failed. */
  retry(name: string, id: string): Promise<boolean>;
  /** Deletes a failed job; false when it is not (or no longer) failed. */
  discard(name: string, id: string): Promise<boolean>;
  /** The names of the kinds and schedules declared. */
  names(): string[];
}
