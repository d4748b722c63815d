import type { AppContext, Logger } from '../context';
import type { DatabaseHandle } from '../db';
import { purgeUsedCaptchas } from '../integrations/captcha';
import { MAIL_DELIVERY_JOB } from '../mail';
import { sweepStorage } from '../modules/artifacts/sweep';
import { DOWNLOAD_RECORD_JOB, writeDownloadRecord } from '../modules/downloads/service';
import { purgeExpiredResetTokens, purgeOldLoginAttempts } from '../modules/auth/service';
import { purgeExpiredSessions } from '../modules/sessions/service';
import { purgeExpiredChallenges } from '../modules/two-factor/sign-in';
import { purgeExpiredSupportJwtIds } from '../modules/sso/service';
import { CRM_SYNC_JOB, runCrmSyncJob } from '../modules/crm/service';
import { DOWNLOAD_DIGEST_JOB, sendDownloadDigest } from '../modules/notifications/digest';
import { fanOut, NOTIFICATION_FANOUT_JOB } from '../modules/notifications/events';
import { LICENCE_EXPIRY_SCHEDULE, queueExpiryNotices } from '../modules/notifications/expiry';
import { purgeIdempotencyKeys } from '../plugins/idempotency';
import { purgeExpiredOidcState } from '../modules/oidc/adapter';
import {
  ATTEMPTS_PER_ENDPOINT,
  deliverWebhook,
  WEBHOOK_DELIVERY_JOB,
  webhookGaveUp,
} from '../modules/webhooks/deliver';
import { defineInstanceJobs } from '../modules/instances/jobs';
import { TEST_CHECKOUT_EVENT_JOB } from '../integrations/payments';
import { endGrace, GRACE_END_JOB } from '../modules/billing/sync';
import { endTrial, TRIAL_END_JOB } from '../modules/billing/trial';
import { deliverTestCheckoutEvent } from '../modules/billing/webhooks';
import { createPgBossStore } from './pg-boss-store';
import { createJobRunner } from './runner';
import { createSqliteStore } from './sqlite-store';
import type { JobStore } from './store';
import type { JobRunner, ScheduledJob } from './types';

export type { JobRunner, QueuedJobs, ScheduledJob } from './types';

/**
 * What the portal does on its own. Purges keep tables from growing without bound; what they delete
 * is already refused by the code that reads it, so their pace is no rule. Times are UTC.
 */
export const SCHEDULED_JOBS: ScheduledJob[] = [
  { name: 'purge.sessions', cron: '5 * * * *', run: (ctx) => purgeExpiredSessions(ctx) },
  { name: 'purge.reset-tokens', cron: '10 * * * *', run: (ctx) => purgeExpiredResetTokens(ctx) },
  { name: 'purge.two-factor-challenges', cron: '15 * * * *', run: (ctx) => purgeExpiredChallenges(ctx) },
  { name: 'purge.login-attempts', cron: '15 * * * *', run: (ctx) => purgeOldLoginAttempts(ctx) },
  { name: 'purge.used-captchas', cron: '*/10 * * * *', run: (ctx) => purgeUsedCaptchas(ctx.db) },
  { name: 'purge.idempotency-keys', cron: '20 * * * *', run: (ctx) => purgeIdempotencyKeys(ctx) },
  // the OpenID Connect provider's expired sessions, codes, tokens and grants (docs/oidc.md)
  { name: 'purge.oidc', cron: '35 * * * *', run: (ctx) => purgeExpiredOidcState(ctx.db) },
  { name: 'purge.support-jwt-ids', cron: '35 * * * *', run: (ctx) => purgeExpiredSupportJwtIds(ctx) },
  // files a process killed mid-upload left behind
  { name: 'sweep.storage', cron: '25 * * * *', run: (ctx) => sweepStorage(ctx) },
  // licences about to end or ended: told once per licence and end date (docs/notifications.md)
  { name: LICENCE_EXPIRY_SCHEDULE, cron: '0 6 * * *', run: (ctx, actor) => queueExpiryNotices(ctx, actor) },
];

/** Where the jobs of this database are kept (decision 063). */
export function storeFor(database: DatabaseHandle): JobStore {
  return database.dialect === 'postgres' ? createPgBossStore(database.db) : createSqliteStore(database.db);
}

/**
 * The job runner of a portal, on the store of its database (decision 063), with every kind of work
 * declared: the command line, the app and the tests queue and run the same kinds.
 */
export function createJobs(deps: {
  database: DatabaseHandle;
  log: Logger;
  context: () => AppContext;
  /** the node is answering requests (bulk kinds yield to them) */
  busy?: () => boolean;
}): JobRunner {
  const { database } = deps;
  const jobs = createJobRunner({ store: storeFor(database), log: deps.log, context: deps.context, busy: deps.busy });
  jobs.define({
    name: MAIL_DELIVERY_JOB,
    // SMTP waits are bounded well below this (mail/transport.ts)
    expireInSeconds: 120,
    // 10 attempts over about 8 hours: 30 s, 1 min, 2 min… (doubled, with jitter)
    retryLimit: 9,
    retryDelaySeconds: 30,
    // as many as the SMTP connections kept (mail/transport.ts); one at a time while requests wait
    concurrency: 10,
    yieldsToRequests: true,
    run: async (ctx, _actor, { mailId }) => ctx.mail.deliver(mailId),
    onFinalFailure: (ctx, _actor, { mailId }, error) => ctx.mail.gaveUp(mailId, error),
  });
  jobs.define({
    name: DOWNLOAD_RECORD_JOB,
    retryLimit: 10,
    retryDelaySeconds: 5,
    concurrency: 10,
    run: (ctx, actor, record) => writeDownloadRecord(ctx, actor, record),
  });
  jobs.define({
    name: WEBHOOK_DELIVERY_JOB,
    // an attempt waits at most 10 s for its answer (config.webhooks.timeoutMs)
    expireInSeconds: 60,
    // 13 attempts over about 3 days (docs/webhooks.md): retries after 45 s, 90 s, 3 min… doubling to
    // 25 h; 45 × (2^12 − 1) s ≈ 2.1 days of waits, plus up to as much again of jitter (about 3 days)
    retryLimit: 12,
    retryDelaySeconds: 45,
    // an attempt mostly waits for an answer; one endpoint, however slow, takes at most half of these
    concurrency: 2 * ATTEMPTS_PER_ENDPOINT,
    run: async (ctx, _actor, { deliveryId }) => deliverWebhook(ctx, deliveryId),
    onFinalFailure: (ctx, _actor, { deliveryId }) => webhookGaveUp(ctx, deliveryId),
  });
  jobs.define({
    name: NOTIFICATION_FANOUT_JOB,
    retryLimit: 8,
    retryDelaySeconds: 30,
    // the daily expiry run queues one per licence told: bulk work
    yieldsToRequests: true,
    run: (ctx, actor, payload) => fanOut(ctx, actor, payload),
  });
  jobs.define({
    name: DOWNLOAD_DIGEST_JOB,
    singleton: true,
    retryLimit: 8,
    retryDelaySeconds: 60,
    run: (ctx, actor, payload) => sendDownloadDigest(ctx, actor, payload),
  });
  // self-service billing (docs/billing.md): a grace that ends; an event of the built-in test checkout
  jobs.define({
    name: GRACE_END_JOB,
    retryLimit: 10,
    retryDelaySeconds: 60,
    run: (ctx, actor, payload) => endGrace(ctx, actor, payload),
  });
  jobs.define({
    name: TRIAL_END_JOB,
    retryLimit: 10,
    retryDelaySeconds: 60,
    run: (ctx, actor, payload) => endTrial(ctx, actor, payload),
  });
  jobs.define({
    name: TEST_CHECKOUT_EVENT_JOB,
    retryLimit: 8,
    retryDelaySeconds: 5,
    run: (ctx, _actor, payload) => deliverTestCheckoutEvent(ctx, payload),
  });
  // customers created or changed, pushed to the CRM (CRM_SYNC_ON_CHANGE, docs/crm.md): 9 attempts
  // over about 4 hours (1 min, 2 min, 4 min… doubled, with jitter); a push reads the customer as it is
  jobs.define({
    name: CRM_SYNC_JOB,
    singleton: true,
    retryLimit: 8,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 300,
    concurrency: 2,
    run: (ctx, _actor, payload) => runCrmSyncJob(ctx, payload),
  });
  defineInstanceJobs(jobs);
  for (const job of SCHEDULED_JOBS) jobs.schedule(job);
  return jobs;
}
