import type { DB } from '../db';
import type { EnqueueOptions, FailedJob, JobCount } from './types';

/** A kind's settings with every default filled in, as both engines store them. */
export interface KindSettings {
  name: string;
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  expireInSeconds: number;
  singleton: boolean;
}

/** One attempt handed to this node: `retryCount` attempts came before it. */
export interface FetchedJob {
  id: string;
  payload: unknown;
  retryCount: number;
  retryLimit: number;
}

/**
 * Where jobs are kept: pg-boss's schema on PostgreSQL (pg-boss-store.ts), the `jobs` table on SQLite
 * (sqlite-store.ts). Both give an attempt to one fetcher, retry a failed attempt after
 * `retryDelaySeconds * 2^n` (with jitter) while attempts remain, and keep a failed job for operators.
 */
export interface JobStore {
  /** Creates or upgrades the storage, and the kinds' settings; idempotent and safe on several nodes. */
  prepare(kinds: KindSettings[]): Promise<void>;
  /** false: a singleton key's job was already waiting */
  insert(executor: DB, kind: KindSettings, payload: unknown, options: EnqueueOptions): Promise<boolean>;
  /** Many jobs of one kind at once, due now, in a few statements (a kind without singleton keys). */
  insertMany(executor: DB, kind: KindSettings, payloads: readonly unknown[]): Promise<void>;
  /** Takes up to `limit` due jobs of the kind for this node (state active). */
  fetch(kind: KindSettings, limit: number): Promise<FetchedJob[]>;
  /** Attempts of one kind that succeeded, many at once (the runner gathers them: decision 075). */
  complete(name: string, ids: readonly string[]): Promise<void>;
  /** The attempt failed: the job is retried later, or failed for good when no attempt remains. */
  fail(name: string, id: string, error: string): Promise<void>;
  /**
   * The attempt did not happen (JobPutOff): the job waits until `runAt`, and its next fetch counts no
   * retry (as a job never started). Waiting as a retry does, it never meets a singleton key's queued job.
   */
  putOff(name: string, id: string, runAt: Date): Promise<void>;
  /** At this node's start: what a previous life of a single-node store left active is due again. */
  recover(): Promise<void>;
  /** Now and then: attempts past their time fail (and are retried), old finished jobs are deleted. */
  maintain(): Promise<void>;
  counts(): Promise<JobCount[]>;
  failed(options: { limit: number; offset: number; name?: string }): Promise<{ items: FailedJob[]; total: number }>;
  retry(name: string, id: string): Promise<boolean>;
  discard(name: string, id: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Seconds before the next attempt after `retryCount` earlier retries, as pg-boss computes it (so both
 * engines wait alike): `delay * 2^(n+1) / 2`, plus up to as much again at random so that many jobs
 * failing together do not come back together.
 */
export function retryDelaySeconds(kind: Pick<KindSettings, 'retryDelaySeconds' | 'retryBackoff'>, retryCount: number) {
  if (!kind.retryBackoff) return kind.retryDelaySeconds;
  const base = (Math.max(1, kind.retryDelaySeconds) * 2 ** Math.min(16, retryCount + 1)) / 2;
  return base + base * Math.random();
}
