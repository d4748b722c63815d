import crypto from 'node:crypto';
import {
  isWebhookEvent,
  WEBHOOK_EVENT_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEvent,
} from '../../../common/webhooks';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { JobPutOff } from '../../jobs/types';
import { postWebhook } from './post';
import * as repo from './repo';
import { unsealWebhookSecret } from './secrets';
import { webhookSignature } from './signature';

export const WEBHOOK_DELIVERY_JOB = 'webhooks.deliver';

declare module '../../jobs/types' {
  interface QueuedJobs {
    [WEBHOOK_DELIVERY_JOB]: { deliveryId: number };
  }
}

/** The User-Agent of every delivery. */
export const WEBHOOK_USER_AGENT = 'Portal-Webhooks/1';

/** An event as the code that emits it describes it. */
interface WebhookEventInput {
  /** a UUID, the same in every delivery of the event */
  id: string;
  type: WebhookEvent;
  /** ISO 8601 */
  createdAt: string;
  data: Record<string, unknown>;
}

/**
 * The one entry point of the code that emits events (docs/webhooks.md): for each enabled endpoint
 * subscribed to the event's type, a delivery row and its job, both through `executor`. Call it in the
 * transaction of the change the event tells of, so the deliveries exist exactly when it commits.
 * Returns the ids of the deliveries queued.
 */
export async function queueWebhookDeliveries(
  ctx: Pick<AppContext, 'jobs'>,
  executor: DB,
  event: WebhookEventInput,
): Promise<number[]> {
  if (!isWebhookEvent(event.type)) throw new Error(`unknown webhook event ${String(event.type)}`);
  const payload = JSON.stringify({ id: event.id, type: event.type, created: event.createdAt, data: event.data });
  const ids: number[] = [];
  for (const endpoint of await repo.enabledEndpoints(executor)) {
    if (!(JSON.parse(endpoint.events) as string[]).includes(event.type)) continue;
    const { id } = await repo.insertDelivery(executor, {
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      payload,
    });
    await ctx.jobs.enqueue(executor, WEBHOOK_DELIVERY_JOB, { deliveryId: id });
    ids.push(id);
  }
  return ids;
}

/**
 * Tells the subscribed endpoints of an event, in the transaction of the change that causes it: a new id
 * and the time now. The services call this for the `<object>.<verb>` events, the notification fan-out
 * for the eight notification events.
 */
export async function emitWebhook(
  ctx: Pick<AppContext, 'jobs'>,
  executor: DB,
  type: WebhookEvent,
  data: Record<string, unknown>,
  at: { id?: string; createdAt?: string } = {},
): Promise<void> {
  await queueWebhookDeliveries(ctx, executor, {
    id: at.id ?? crypto.randomUUID(),
    type,
    createdAt: at.createdAt ?? new Date().toISOString(),
    data,
  });
}

/**
 * Attempts to one endpoint a node makes at once; its other deliveries are put off meanwhile. An
 * endpoint thus holds at most this many of the node's delivery slots (half of them:
 * server/job-kinds.ts), however slowly it answers.
 */
export const ATTEMPTS_PER_ENDPOINT = 10;
/** An endpoint whose attempts in progress began less than this ago answers promptly. */
const PROMPT_MS = 1000;

/**
 * When the attempts in progress began, per endpoint, per node: its job runner stands for the node (a
 * test process runs several portals, each with its own). In memory, as the attempts themselves are.
 */
const attemptsByNode = new WeakMap<object, Map<number, number[]>>();

/**
 * Runs `attempt` as one of the endpoint's attempts on this node, at most ATTEMPTS_PER_ENDPOINT at
 * once, so that an endpoint answering slowly or never holds up no one else's deliveries. Beyond them,
 * the delivery is put off without spending an attempt: for a moment when the endpoint answers
 * promptly (its attempts in progress all began less than PROMPT_MS ago), else for a random while up
 * to the timeout, by when an attempt in progress has ended (so the waiting ones come back spread out).
 */
async function asAttemptTo<T>(ctx: AppContext, endpointId: number, attempt: () => Promise<T>): Promise<T> {
  let node = attemptsByNode.get(ctx.jobs);
  if (!node) attemptsByNode.set(ctx.jobs, (node = new Map()));
  const began = node.get(endpointId) ?? [];
  if (began.length >= ATTEMPTS_PER_ENDPOINT) {
    const { timeoutMs } = ctx.config.webhooks;
    const prompt = Date.now() - Math.min(...began) < Math.min(PROMPT_MS, timeoutMs / 4);
    const seconds = prompt ? 0.2 + Math.random() * 0.3 : (timeoutMs / 1000) * (0.5 + Math.random() / 2);
    throw new JobPutOff(seconds, `endpoint ${endpointId} has ${began.length} attempts in progress`);
  }
  const now = Date.now();
  began.push(now);
  node.set(endpointId, began);
  try {
    return await attempt();
  } finally {
    began.splice(began.indexOf(now), 1);
    if (began.length === 0) node.delete(endpointId);
  }
}

/**
 * One attempt of a delivery (the `webhooks.deliver` job): signs the stored body with a fresh
 * timestamp and POSTs it. A 2xx answer succeeds; anything else is recorded on the row and thrown, so
 * the job retries it with backoff (server/job-kinds.ts). A delivery no longer pending (delivered by
 * an earlier attempt or a resend) or gone with its endpoint is skipped; one whose endpoint was
 * disabled, or whose secret cannot be unsealed, fails without an attempt. One to an endpoint
 * with its share of attempts in progress on this node is put off (asAttemptTo).
 */
export async function deliverWebhook(ctx: AppContext, deliveryId: number): Promise<'skipped' | 'failed' | 'succeeded'> {
  const row = await repo.deliveryToSend(ctx.db, deliveryId);
  if (!row || row.status !== 'pending') return 'skipped';
  if (row.enabled !== 1) {
    await repo.markFailed(ctx.db, deliveryId, 'the endpoint is disabled');
    return 'failed';
  }
  const secret = unsealWebhookSecret(ctx.config.sealSecrets, row.secretSealed);
  if (secret === null) {
    await repo.markFailed(ctx.db, deliveryId, 'the signing secret cannot be read (was SESSION_SECRET changed?)');
    return 'failed';
  }
  const result = await asAttemptTo(ctx, row.endpointId, () => {
    const timestamp = Math.floor(Date.now() / 1000);
    return postWebhook(
      row.url,
      row.payload,
      {
        'Content-Type': 'application/json',
        'User-Agent': WEBHOOK_USER_AGENT,
        [WEBHOOK_EVENT_ID_HEADER]: row.eventId,
        [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(secret, timestamp, row.payload),
      },
      { timeoutMs: ctx.config.webhooks.timeoutMs, allowPrivate: ctx.config.webhooks.allowPrivate },
    );
  });
  const succeeded = result.error === null;
  await repo.recordAttempt(ctx.db, deliveryId, {
    status: succeeded ? 'succeeded' : 'pending',
    responseStatus: result.status,
    responseMs: result.ms,
    error: result.error,
  });
  if (!succeeded) throw new Error(`webhook delivery ${deliveryId} failed: ${result.error}`);
  return 'succeeded';
}

/** After the last attempt: the delivery failed for good (a resend may still try again). */
export async function webhookGaveUp(ctx: AppContext, deliveryId: number): Promise<void> {
  await repo.markFailed(ctx.db, deliveryId, null);
}
