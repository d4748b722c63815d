import type { Actor } from '../actor';
import type { AppContext } from '../context';

/**
 * Work the portal does on its own, outside any request. Jobs call services and repositories with the
 * context, like routes do (decision 007), as a job actor named after the job (decision 059): what a
 * job changes is audited as that job's doing.
 */
export interface ScheduledJob {
  /** unique; also what the log names */
  name: string;
  /** how often it runs; it also runs once when the runner starts */
  everyMs: number;
  run(ctx: AppContext, actor: Actor): Promise<unknown>;
}

/**
 * Queued work: the payload of each kind, by name, so a wrong payload is a type error. A module that
 * queues work adds its kind here by declaration merging:
 * `declare module '../../jobs/types' { interface QueuedJobs { 'licences.expire': { licenceId: number } } }`
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface QueuedJobs {}

export interface JobRunner {
  /** Adds recurring work; call before start(). */
  schedule(job: ScheduledJob): void;
  /** Names the handler of one kind of queued work. */
  handle<N extends Extract<keyof QueuedJobs, string>>(
    name: N,
    handler: (ctx: AppContext, actor: Actor, payload: QueuedJobs[N]) => Promise<unknown>,
  ): void;
  /** Queues one piece of work; it runs soon after, once the runner has started. */
  enqueue<N extends Extract<keyof QueuedJobs, string>>(name: N, payload: QueuedJobs[N]): void;
  /**
   * Runs a scheduled job now rather than at its next tick (e.g. the mail outbox right after a mail is
   * queued). Does nothing before start(), so tests that drive the work by hand stay in control.
   */
  trigger(name: string): void;
  start(ctx: AppContext): void;
  /** Stops the timers and waits for the work in progress. */
  stop(): Promise<void>;
  /** Resolves once no work runs or waits, including work started meanwhile. */
  idle(): Promise<void>;
}
