import type { Selectable } from 'kysely';
import { countCap } from '../../../common/pagination';
import type { WebhookDeliveryStatus } from '../../../common/webhooks';
import { type DB, nowIso } from '../../db';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema';
import { countUpTo } from '../../db/search';

/** Webhook endpoints and deliveries (migration 023). */

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export function listEndpoints(db: DB): Promise<EndpointRow[]> {
  return db.selectFrom('webhookEndpoints').selectAll().orderBy('id').execute();
}

export function findEndpoint(db: DB, id: number): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhookEndpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The enabled endpoints; the caller keeps those subscribed to its event (a vendor has a handful). */
export function enabledEndpoints(db: DB): Promise<Pick<EndpointRow, 'id' | 'events'>[]> {
  return db.selectFrom('webhookEndpoints').select(['id', 'events']).where('enabled', '=', 1).orderBy('id').execute();
}

export function insertEndpoint(db: DB, values: { url: string; events: string[]; secretSealed: string }) {
  const now = nowIso();
  return db
    .insertInto('webhookEndpoints')
    .values({
      url: values.url,
      events: JSON.stringify(values.events),
      secretSealed: values.secretSealed,
      enabled: 1,
      createdAt: now,
      updatedAt: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateEndpoint(db: DB, id: number, values: { url?: string; events?: string[]; enabled?: boolean }) {
  return db
    .updateTable('webhookEndpoints')
    .set({
      ...(values.url !== undefined && { url: values.url }),
      ...(values.events !== undefined && { events: JSON.stringify(values.events) }),
      ...(values.enabled !== undefined && { enabled: values.enabled ? 1 : 0 }),
      updatedAt: nowIso(),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the endpoint and, by the foreign key, its deliveries; false when there was none. */
export async function deleteEndpoint(db: DB, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhookEndpoints').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A pending delivery; the demo data gives the state its attempts would have left too. */
export function insertDelivery(
  db: DB,
  values: { endpointId: number; eventId: string; eventType: string; payload: string } & Partial<
    Pick<
      DeliveryRow,
      'status' | 'attempts' | 'responseStatus' | 'responseMs' | 'lastError' | 'createdAt' | 'deliveredAt'
    >
  >,
) {
  return db
    .insertInto('webhookDeliveries')
    .values({ status: 'pending', attempts: 0, createdAt: nowIso(), ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const ofEndpoint = (db: DB, endpointId: number) =>
  db.selectFrom('webhookDeliveries').where('endpointId', '=', endpointId);

/**
 * One page of an endpoint's deliveries, newest first (the id orders those of one instant), counted
 * up to a cap (decision 013). Served by webhook_deliveries_endpoint_id_created_at_id_idx.
 */
export async function listDeliveries(db: DB, endpointId: number, page: { offset: number; length: number }) {
  const [rows, count] = await Promise.all([
    ofEndpoint(db, endpointId)
      .selectAll()
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(page.length)
      .offset(page.offset)
      .execute(),
    countUpTo(db, ofEndpoint(db, endpointId), countCap(page.offset, page.length)),
  ]);
  return { rows, total: count.total, capped: count.capped };
}

export function findDelivery(db: DB, endpointId: number, id: number): Promise<DeliveryRow | undefined> {
  return ofEndpoint(db, endpointId).selectAll().where('id', '=', id).executeTakeFirst();
}

/** A delivery with what its attempt needs of its endpoint. */
export function deliveryToSend(db: DB, id: number) {
  return db
    .selectFrom('webhookDeliveries')
    .innerJoin('webhookEndpoints', 'webhookEndpoints.id', 'webhookDeliveries.endpointId')
    .select([
      'webhookDeliveries.id',
      'webhookDeliveries.eventId',
      'webhookDeliveries.payload',
      'webhookDeliveries.status',
      'webhookDeliveries.endpointId',
      'webhookEndpoints.url',
      'webhookEndpoints.secretSealed',
      'webhookEndpoints.enabled',
    ])
    .where('webhookDeliveries.id', '=', id)
    .executeTakeFirst();
}

/** Records one attempt: one more, its answer and timing, and the status it leaves the delivery in. */
export async function recordAttempt(
  db: DB,
  id: number,
  attempt: {
    status: WebhookDeliveryStatus;
    responseStatus: number | null;
    responseMs: number | null;
    error: string | null;
  },
) {
  await db
    .updateTable('webhookDeliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      status: attempt.status,
      responseStatus: attempt.responseStatus,
      responseMs: attempt.responseMs,
      lastError: attempt.error === null ? null : attempt.error.slice(0, 1000),
      ...(attempt.status === 'succeeded' && { deliveredAt: nowIso() }),
    }))
    .where('id', '=', id)
    .execute();
}

/** Ends a delivery without an attempt (its endpoint disabled, its secret unreadable), or after its last one. */
export async function markFailed(db: DB, id: number, error: string | null) {
  await db
    .updateTable('webhookDeliveries')
    .set({ status: 'failed', ...(error !== null && { lastError: error.slice(0, 1000) }) })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/** Makes a delivery pending again (a resend); returns it. */
export function markPending(db: DB, id: number) {
  return db
    .updateTable('webhookDeliveries')
    .set({ status: 'pending' })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
