import type {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
} from '../../../common/api/webhooks';
import { webhookAddressErrorKey } from '../../../common/api/webhooks';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../../common/webhooks';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { notFound } from '../../http-error';
import { invalidField } from '../../validation';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import { urlAddressRefusal } from './address';
import { WEBHOOK_DELIVERY_JOB } from './deliver';
import * as repo from './repo';
import { newWebhookSecret, sealWebhookSecret } from './secrets';

/**
 * Webhook endpoints, managed by admins (docs/webhooks.md): each change writes its audit entry, of no
 * customer, in its transaction. The signing secret is answered once, when the endpoint is created.
 */

const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';

/**
 * A URL whose host is an IP address that no delivery may reach is refused when it is saved, with the
 * kind of address (a name is judged by what it resolves to, at each delivery: docs/webhooks.md).
 */
function checkUrlAddress(ctx: AppContext, url: string) {
  const refusal = urlAddressRefusal(url, ctx.config.webhooks.allowPrivate);
  if (refusal) throw invalidField('url', webhookAddressErrorKey(refusal.kind), { address: refusal.address });
}

/** The events in WEBHOOK_EVENTS order, each once. */
const eventsOf = (events: readonly string[]): WebhookEvent[] => WEBHOOK_EVENTS.filter((e) => events.includes(e));

function toEndpoint(row: repo.EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: eventsOf(JSON.parse(row.events) as string[]),
    enabled: row.enabled === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toDelivery(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType as WebhookEvent,
    status: row.status,
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    responseMs: row.responseMs,
    lastError: row.lastError,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}

export async function listEndpoints(ctx: AppContext, _actor: Actor): Promise<WebhookEndpointList> {
  return { data: (await repo.listEndpoints(ctx.db)).map(toEndpoint) };
}

/** A new endpoint, enabled, with a fresh secret (sealed at rest), and its `createWebhook` entry. */
export async function createEndpoint(
  ctx: AppContext,
  actor: Actor,
  body: CreateWebhookBody,
): Promise<CreatedWebhookEndpoint> {
  const { user } = signedInUser(actor);
  checkUrlAddress(ctx, body.url);
  const secret = newWebhookSecret();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const created = await repo.insertEndpoint(trx, {
      url: body.url,
      events: eventsOf(body.events),
      secretSealed: sealWebhookSecret(ctx.config.sessionSecret, secret),
    });
    await insertAuditEntry(trx, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'createWebhook',
      data: { webhookId: created.id, url: created.url, events: eventsOf(body.events) },
    });
    return created;
  });
  ctx.log.info({ webhookId: row.id, userId: user.id }, 'webhook endpoint created');
  return { ...toEndpoint(row), secret };
}

/** Changes what the body gives; the `updateWebhook` entry lists what changed. */
export async function updateEndpoint(
  ctx: AppContext,
  actor: Actor,
  input: { id: number; body: UpdateWebhookBody },
): Promise<WebhookEndpoint> {
  const { body } = input;
  if (body.url !== undefined) checkUrlAddress(ctx, body.url);
  return ctx.db.transaction().execute(async (trx) => {
    const before = await repo.findEndpoint(trx, input.id);
    if (!before) throw notFound(ENDPOINT_NOT_FOUND);
    const previous = toEndpoint(before);
    const events = body.events && eventsOf(body.events);
    const after = await repo.updateEndpoint(trx, input.id, { url: body.url, events, enabled: body.enabled });
    if (!after) throw notFound(ENDPOINT_NOT_FOUND);
    const next = toEndpoint(after);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (next.url !== previous.url) changes.url = { from: previous.url, to: next.url };
    if (next.events.join() !== previous.events.join()) changes.events = { from: previous.events, to: next.events };
    if (next.enabled !== previous.enabled) changes.enabled = { from: previous.enabled, to: next.enabled };
    if (Object.keys(changes).length > 0) {
      await insertAuditEntry(trx, {
        customerId: null,
        by: auditActorOf(actor),
        action: 'updateWebhook',
        data: { webhookId: input.id, changes },
      });
    }
    return next;
  });
}

/** Deletes the endpoint and its deliveries (their jobs then find nothing to send). */
export async function deleteEndpoint(ctx: AppContext, actor: Actor, input: { id: number }): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await repo.findEndpoint(trx, input.id);
    if (!row || !(await repo.deleteEndpoint(trx, input.id))) throw notFound(ENDPOINT_NOT_FOUND);
    await insertAuditEntry(trx, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'deleteWebhook',
      data: { webhookId: input.id, url: row.url },
    });
  });
}

export async function listDeliveries(
  ctx: AppContext,
  _actor: Actor,
  input: { id: number; pageOffset: number; pageLength: number },
): Promise<WebhookDeliveryList> {
  if (!(await repo.findEndpoint(ctx.db, input.id))) throw notFound(ENDPOINT_NOT_FOUND);
  const page = await repo.listDeliveries(ctx.db, input.id, { offset: input.pageOffset, length: input.pageLength });
  return { data: page.rows.map(toDelivery), offset: input.pageOffset, total: page.total, totalCapped: page.capped };
}

/**
 * Queues a new attempt of a delivery, whatever its status: it is pending again and its job runs at
 * once, with a fresh set of retries. The body is the same (receivers deduplicate by event id).
 */
export async function resendDelivery(
  ctx: AppContext,
  actor: Actor,
  input: { id: number; deliveryId: number },
): Promise<WebhookDelivery> {
  return ctx.db.transaction().execute(async (trx) => {
    const delivery = await repo.findDelivery(trx, input.id, input.deliveryId);
    if (!delivery) throw notFound('Webhook delivery not found');
    const pending = await repo.markPending(trx, delivery.id);
    await ctx.jobs.enqueue(trx, WEBHOOK_DELIVERY_JOB, { deliveryId: delivery.id });
    await insertAuditEntry(trx, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'resendWebhookDelivery',
      data: { webhookId: input.id, deliveryId: delivery.id, eventId: delivery.eventId, eventType: delivery.eventType },
    });
    return toDelivery(pending);
  });
}
