import { purgeUsedCaptchas } from '../integrations/captcha';
import { purgeExpiredResetTokens, purgeOldLoginAttempts } from '../modules/auth/service';
import { sweepStorage } from '../modules/artifacts/sweep';
import { purgeIdempotencyKeys } from '../plugins/idempotency';
import { purgeExpiredSessions } from '../modules/sessions/service';
import type { ScheduledJob } from './types';

export { createInProcessRunner } from './in-process';
export type { JobRunner, QueuedJobs, ScheduledJob } from './types';

const MINUTE = 60_000;

/** The mail outbox's delivery pass; send() also triggers it, so this is the slowest a mail waits. */
export const MAIL_OUTBOX_JOB = 'mail.outbox';
const MAIL_OUTBOX_EVERY_MS = 5_000;

/**
 * What the portal does on its own, started with the app. Purges keep tables from growing without
 * bound; what they delete is already refused by the code that reads it, so their pace is no rule.
 */
export const SCHEDULED_JOBS: ScheduledJob[] = [
  { name: MAIL_OUTBOX_JOB, everyMs: MAIL_OUTBOX_EVERY_MS, run: (ctx) => ctx.mail.flush() },
  { name: 'purge.sessions', everyMs: 60 * MINUTE, run: (ctx) => purgeExpiredSessions(ctx) },
  { name: 'purge.reset-tokens', everyMs: 60 * MINUTE, run: (ctx) => purgeExpiredResetTokens(ctx) },
  { name: 'purge.login-attempts', everyMs: 60 * MINUTE, run: (ctx) => purgeOldLoginAttempts(ctx) },
  { name: 'purge.used-captchas', everyMs: 10 * MINUTE, run: (ctx) => purgeUsedCaptchas(ctx.db) },
  { name: 'purge.idempotency-keys', everyMs: 60 * MINUTE, run: (ctx) => purgeIdempotencyKeys(ctx) },
  // at start too (scheduled jobs run once when started): a process killed mid-upload left files
  { name: 'sweep.storage', everyMs: 60 * MINUTE, run: (ctx) => sweepStorage(ctx) },
];
