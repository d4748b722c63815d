import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { WebhookDeliveryStatus, WebhookEvent } from '../../common/webhooks';
import type { Database } from '../db/schema';
import * as repo from '../modules/webhooks/repo';
import { newWebhookSecret, sealWebhookSecret } from '../modules/webhooks/secrets';

/**
 * Two demo webhook endpoints (docs/webhooks.md) and a history of deliveries, so that the admin's
 * Webhooks page shows its tables: written as their jobs would have left them, none queued. Both are
 * disabled, so a demo portal's events make no delivery: no name to resolve, no attempt retried for days
 * (their hosts are under `.invalid`, RFC 6761, should an admin enable one). An admin enables one, or
 * adds an endpoint of their own, to see deliveries happen. Only with the server secret, which seals
 * their secrets.
 */
const ENDPOINTS: { url: string; events: WebhookEvent[]; enabled: boolean }[] = [
  {
    url: 'https://crm.demo.invalid/hooks/portal',
    events: ['customer.created', 'licence.created', 'licence.renewed', 'member.joined'],
    enabled: false,
  },
  { url: 'https://provisioning.demo.invalid/portal-events', events: ['version.published'], enabled: false },
];

/** [event, days ago, status, attempts, answer, milliseconds, error] of the first endpoint's deliveries */
const DELIVERIES: [WebhookEvent, number, WebhookDeliveryStatus, number, number | null, number | null, string | null][] =
  [
    ['licence.renewed', 1, 'succeeded', 1, 200, 84, null],
    ['member.joined', 3, 'failed', 13, 503, 10_000, 'the endpoint answered 503'],
    ['licence.created', 5, 'succeeded', 2, 204, 131, null],
    ['customer.created', 9, 'succeeded', 1, 200, 67, null],
  ];

export async function seedDemoWebhooks(trx: Transaction<Database>, secret: string, ago: (days: number) => string) {
  const ids: number[] = [];
  for (const endpoint of ENDPOINTS) {
    const row = await repo.insertEndpoint(trx, {
      url: endpoint.url,
      events: endpoint.events,
      secretSealed: sealWebhookSecret(secret, newWebhookSecret()),
    });
    if (!endpoint.enabled) await repo.updateEndpoint(trx, row.id, { enabled: false });
    ids.push(row.id);
  }
  for (const [type, days, status, attempts, responseStatus, responseMs, lastError] of DELIVERIES) {
    const eventId = crypto.randomUUID();
    const createdAt = ago(days);
    await repo.insertDelivery(trx, {
      endpointId: ids[0],
      eventId,
      eventType: type,
      payload: JSON.stringify({ id: eventId, type, created: createdAt, data: {} }),
      status,
      attempts,
      responseStatus,
      responseMs,
      lastError,
      createdAt,
      deliveredAt: status === 'succeeded' ? createdAt : null,
    });
  }
}
