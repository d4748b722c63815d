import { z } from 'zod/mini';
import { givenOnce, listOf, PageQuery } from './common';

/**
 * The Background work page (admins): the job engine's kinds of work with their counts, and its failed
 * jobs, which an admin queues again or discards (docs/decisions/062, "Operators"; the engine: 063).
 */

/** A job name as the engine declares them (`mail.deliver`, `purge.sessions`); 100 characters at most. */
const JOB_NAME_MAX = 100;
/** A job's id: digits on SQLite, a UUID on PostgreSQL. */
const JOB_ID_MAX = 64;
/** The payload summary's length at most, in characters. */
export const PAYLOAD_SUMMARY_MAX = 200;

/** One declared kind of work or schedule, with its jobs by state (`queued`: waiting or to be retried). */
export const JobCounts = z.object({
  name: z.string(),
  queued: z.int(),
  active: z.int(),
  failed: z.int(),
  completed: z.int(),
});
export type JobCounts = z.infer<typeof JobCounts>;

/** `GET /api/jobs`: every declared name, those without any job included. */
export const JobCountsList = z.object({ data: z.array(JobCounts) });
export type JobCountsList = z.infer<typeof JobCountsList>;

/** `GET /api/jobs/failed`: one page, newest failure first; `name` keeps the jobs of one name. */
export const FailedJobQuery = z.object({
  pageOffset: PageQuery.shape.pageOffset,
  pageLength: PageQuery.shape.pageLength,
  name: z.optional(z.string({ error: givenOnce }).check(z.trim(), z.maxLength(JOB_NAME_MAX))),
});
export type FailedJobQuery = z.infer<typeof FailedJobQuery>;

export const FailedJobItem = z.object({
  id: z.string(),
  name: z.string(),
  /** the last attempt's error message */
  error: z.nullable(z.string()),
  attempts: z.int(),
  payloadSummary: z
    .string()
    .check(
      z.describe(
        `the payload as JSON, at most ${PAYLOAD_SUMMARY_MAX} characters (cut with an ellipsis), each value under a key that may hold a secret (secret, token, password, key, link, url) replaced by "[redacted]"`,
      ),
    ),
  createdAt: z.string(),
  failedAt: z.nullable(z.string()),
});
export type FailedJobItem = z.infer<typeof FailedJobItem>;

export const FailedJobList = listOf(FailedJobItem);
export type FailedJobList = z.infer<typeof FailedJobList>;

/** `POST /api/jobs/:name/:id/retry` and `/discard`. */
export const FailedJobParams = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(JOB_NAME_MAX)),
  id: z.string().check(z.regex(new RegExp(`^[0-9A-Za-z-]{1,${JOB_ID_MAX}}$`))),
});
export type FailedJobParams = z.infer<typeof FailedJobParams>;
