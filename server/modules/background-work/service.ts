import type {
  FailedJobList,
  FailedJobParams,
  FailedJobQuery,
  JobCounts,
  JobCountsList,
} from '../../../common/api/jobs';
import { PAYLOAD_SUMMARY_MAX } from '../../../common/api/jobs';
import { type Actor, actorLabel } from '../../actor';
import type { AppContext } from '../../context';
import { notFound } from '../../http-error';

/**
 * The Background work page (docs/decisions/062, "Operators"; the engine: 063): what the job engine holds, by name and
 * state, its failed jobs, and an admin's retry or discard of one. Nothing here belongs to a customer,
 * so nothing is audited; each retry and discard is logged with who asked.
 */

/** A key whose value may be a secret, or a link that works as one (a reset link, a presigned URL). */
const SECRET_KEY = /secret|token|password|key|link|url/i;
export const REDACTED = '[redacted]';

function redact(value: unknown, depth = 0): unknown {
  // a payload is plain JSON written by the portal: deeper than this, it is cut rather than walked
  if (depth > 20) return '…';
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, SECRET_KEY.test(key) ? REDACTED : redact(item, depth + 1)]),
    );
  }
  return value;
}

/**
 * A payload as the page shows it: JSON of at most PAYLOAD_SUMMARY_MAX characters, each value under a
 * key that looks secret replaced by "[redacted]" (payloads should hold no secret: types.ts; this is
 * the second line).
 */
export function payloadSummary(payload: unknown): string {
  const text = JSON.stringify(redact(payload)) ?? 'null';
  return text.length <= PAYLOAD_SUMMARY_MAX ? text : `${text.slice(0, PAYLOAD_SUMMARY_MAX - 1)}…`;
}

/** Every declared kind of work and schedule, with its jobs by state; names without any job count 0. */
export async function listJobCounts(ctx: AppContext, _actor: Actor): Promise<JobCountsList> {
  const rows = new Map<string, JobCounts>(
    ctx.jobs.names().map((name) => [name, { name, queued: 0, active: 0, failed: 0, completed: 0 }]),
  );
  for (const { name, state, count } of await ctx.jobs.counts()) {
    const row = rows.get(name);
    if (!row) continue;
    if (state === 'created' || state === 'retry') row.queued += count;
    else if (state === 'active' || state === 'failed' || state === 'completed') row[state] += count;
  }
  return { data: [...rows.values()] };
}

/** One page of the failed jobs, newest failure first, of one name or all. */
export async function listFailedJobs(ctx: AppContext, _actor: Actor, query: FailedJobQuery): Promise<FailedJobList> {
  const name = query.name || undefined;
  // a name no job can have answers an empty page without asking the engine
  if (name !== undefined && !ctx.jobs.names().includes(name)) {
    return { data: [], offset: query.pageOffset, total: 0, totalCapped: false };
  }
  const { items, total } = await ctx.jobs.failed({ limit: query.pageLength, offset: query.pageOffset, name });
  return {
    data: items.map((job) => ({
      id: job.id,
      name: job.name,
      error: job.error,
      attempts: job.attempts,
      payloadSummary: payloadSummary(job.payload),
      createdAt: job.createdAt,
      failedAt: job.failedAt,
    })),
    offset: query.pageOffset,
    total,
    totalCapped: false,
  };
}

const NOT_FAILED = 'No failed job with this name and id';

/** Queues a failed job again with a fresh set of attempts; 404 when it is not (or no longer) failed. */
export async function retryFailedJob(ctx: AppContext, actor: Actor, job: FailedJobParams): Promise<void> {
  if (!ctx.jobs.names().includes(job.name) || !(await ctx.jobs.retry(job.name, job.id))) throw notFound(NOT_FAILED);
  ctx.log.info({ job: job.name, jobId: job.id, by: actorLabel(actor) }, `failed job queued again: ${job.name}`);
}

/** Deletes a failed job; 404 when it is not (or no longer) failed. */
export async function discardFailedJob(ctx: AppContext, actor: Actor, job: FailedJobParams): Promise<void> {
  if (!ctx.jobs.names().includes(job.name) || !(await ctx.jobs.discard(job.name, job.id))) throw notFound(NOT_FAILED);
  ctx.log.info({ job: job.name, jobId: job.id, by: actorLabel(actor) }, `failed job discarded: ${job.name}`);
}
