import crypto from 'node:crypto';
import type { DB } from '../db';
import * as repo from '../modules/webhooks/repo';
import { newWebhookSecret, sealWebhookSecret } from '../modules/webhooks/secrets';

/** Test data of webhooks, written through the module's repository. */

/** A fresh enabled endpoint subscribed to `customer.created`, with its secret. */
export async function createWebhookEndpoint(db: DB, serverSecret: string, url = 'https://hooks.example.com/portal') {
  const secret = newWebhookSecret();
  const row = await repo.insertEndpoint(db, {
    url,
    events: ['customer.created'],
    secretSealed: sealWebhookSecret(serverSecret, secret),
  });
  return { id: row.id, secret };
}

/** A fresh delivery of a `customer.created` event to the endpoint (no job queued). */
export async function createWebhookDelivery(db: DB, endpointId: number) {
  const eventId = crypto.randomUUID();
  const payload = JSON.stringify({
    id: eventId,
    type: 'customer.created',
    created: new Date().toISOString(),
    data: {},
  });
  const { id } = await repo.insertDelivery(db, { endpointId, eventId, eventType: 'customer.created', payload });
  return id;
}
