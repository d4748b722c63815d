import { purgeUsedCaptchas } from './integrations/captcha';
import { TEST_CHECKOUT_EVENT_JOB } from './integrations/payments';
import type { JobRunner, ScheduledJob } from './jobs/types';
import { MAIL_DELIVERY_JOB } from './mail';
import { sweepStorage } from './modules/artifacts/sweep';
import { purgeExpiredResetTokens, purgeOldLoginAttempts } from './modules/auth/service';
import { endGrace, GRACE_END_JOB } from './modules/billing/sync';
import { endTrial, TRIAL_END_JOB } from './modules/billing/trial';
import { deliverTestCheckoutEvent } from './modules/billing/webhooks';
import { CRM_SYNC_JOB, runCrmSyncJob } from './modules/crm/service';
import { DOWNLOAD_RECORD_JOB, writeDownloadRecord } from './modules/downloads/service';
import { purgeOldCallbacks } from './modules/instances/callback';
import {
  INSTANCE_CALLBACKS_PURGE,
  INSTANCE_DELETE_DATA_JOB,
  INSTANCE_ORDER_JOB,
  INSTANCE_SIMULATE_JOB,
} from './modules/instances/job-names';
import { startDataDeletion } from './modules/instances/lifecycle';
import { orderGaveUp, sendOrder } from './modules/instances/orders';
import { playSimulatedStep } from './modules/instances/reports';
import { DOWNLOAD_DIGEST_JOB, sendDownloadDigest } from './modules/notifications/digest';
import { fanOut, NOTIFICATION_FANOUT_JOB } from './modules/notifications/events';
import { LICENCE_EXPIRY_SCHEDULE, queueExpiryNotices } from './modules/notifications/expiry';
import { purgeExpiredOidcState } from './modules/oidc/adapter';
import { purgeExpiredSessions } from './modules/sessions/service';
import { purgeExpiredSupportJwtIds } from './modules/sso/service';
import { purgeExpiredChallenges } from './modules/two-factor/sign-in';
import { ATTEMPTS_PER_ENDPOINT, deliverWebhook, WEBHOOK_DELIVERY_JOB, webhookGaveUp } from './modules/webhooks/deliver';
import { purgeIdempotencyKeys } from './plugins/idempotency';

/**
 * What the portal does on its own. Purges keep tables from growing without bound; what they delete
 * is already refused by the code that reads it, so their pace is no rule. Times are UTC.
 */
export const SCHEDULED_JOBS: ScheduledJob[] = [
  // the orchestrator callbacks too old to be replayed (docs/instances.md)
  { name: INSTANCE_CALLBACKS_PURGE, cron: '35 * * * *', run: (ctx) => purgeOldCallbacks(ctx) },
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

/**
 * Declares every kind of background work on `jobs`, before it starts: the kinds of queued work, each
 * with how it is retried and bounded, then the schedules. This is the one place they are declared
 * (docs/decisions/063): server/compose.ts calls it for each runner it builds, so the app, the command
 * line and the tests run the same kinds. A module that queues work names its kind and payload
 * (`QueuedJobs`, jobs/types.ts) and exports the handler declared here.
 */
export function declareJobs(jobs: JobRunner): void {
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
  // cloud instances (docs/instances.md)
  jobs.define({
    name: INSTANCE_ORDER_JOB,
    // an attempt waits at most INSTANCE_ORCHESTRATOR's timeout (10 s) for its answer
    expireInSeconds: 60,
    // 13 attempts over about a day and a half: 30 s, 1 min, 2 min… doubling (with jitter)
    retryLimit: 12,
    retryDelaySeconds: 30,
    run: (ctx, _actor, payload) => sendOrder(ctx, payload),
    onFinalFailure: (ctx, _actor, payload, error) => orderGaveUp(ctx, payload, error),
  });
  jobs.define({
    name: INSTANCE_SIMULATE_JOB,
    retryLimit: 5,
    retryDelaySeconds: 10,
    run: (ctx, _actor, payload) => playSimulatedStep(ctx, payload),
  });
  jobs.define({
    name: INSTANCE_DELETE_DATA_JOB,
    retryLimit: 8,
    retryDelaySeconds: 60,
    run: (ctx, actor, payload) => startDataDeletion(ctx, actor, payload),
  });
  for (const job of SCHEDULED_JOBS) jobs.schedule(job);
}
