import { z } from 'zod/mini';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS, WEBHOOK_URL_MAX } from '../webhooks';
import { listOf, MAX_ID, PageQuery, REQUIRED, requiredIfMissing, wholeNumber } from './common';

/** Webhook endpoints and their deliveries (docs/webhooks.md), managed by admins. */

/** Message keys of the webhook rules (client/i18n `webhooks.errors.*`); the server sends them in details. */
const WEBHOOK_ERRORS = {
  url: 'webhooks.errors.url',
  urlCredentials: 'webhooks.errors.urlCredentials',
  events: 'webhooks.errors.events',
} as const;

/**
 * The message key of a URL whose host is an IP address deliveries may not reach, by the kind of
 * address (the server judges it: the private rule is its configuration); the text names `address`.
 */
export const webhookAddressErrorKey = (kind: string) => `webhooks.errors.address.${kind}`;

/** Why a URL cannot be an endpoint's, as a message key; null when it can. */
function webhookUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return WEBHOOK_ERRORS.url;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return WEBHOOK_ERRORS.url;
  if (url.username !== '' || url.password !== '') return WEBHOOK_ERRORS.urlCredentials;
  if (url.hostname === '') return WEBHOOK_ERRORS.url;
  return null;
}

/** An absolute http(s) URL without credentials, at most WEBHOOK_URL_MAX characters. */
const WebhookUrl = z.string({ error: requiredIfMissing }).check(
  z.trim(),
  z.minLength(1, REQUIRED),
  z.maxLength(WEBHOOK_URL_MAX),
  z.superRefine((value: string, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  }),
);

/** The events an endpoint receives: at least one of WEBHOOK_EVENTS (a repeated one counts once). */
const WebhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS))
  .check(z.minLength(1, WEBHOOK_ERRORS.events), z.maxLength(WEBHOOK_EVENTS.length));

export const WebhookEndpoint = z.object({
  id: z.int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** `GET /api/webhooks`: every endpoint, oldest first (a vendor has a handful). */
export const WebhookEndpointList = z.object({ data: z.array(WebhookEndpoint) });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointList>;

/** `POST /api/webhooks` */
export const CreateWebhookBody = z.strictObject({ url: WebhookUrl, events: WebhookEvents });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/** The answer to creating an endpoint: the only time `secret` is sent. */
export const CreatedWebhookEndpoint = z.object({ ...WebhookEndpoint.shape, secret: z.string() });
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>;

/** `PATCH /api/webhooks/{id}`: what is given changes. */
export const UpdateWebhookBody = z.strictObject({
  url: z.optional(WebhookUrl),
  events: z.optional(WebhookEvents),
  enabled: z.optional(z.boolean()),
});
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookDelivery = z.object({
  id: z.int(),
  eventId: z.string(),
  eventType: z.enum(WEBHOOK_EVENTS),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  /** attempts made so far */
  attempts: z.int(),
  /** the last attempt's HTTP status; null when it got no answer (or none was made) */
  responseStatus: z.nullable(z.int()),
  /** how long the last attempt took, in milliseconds */
  responseMs: z.nullable(z.int()),
  lastError: z.nullable(z.string()),
  createdAt: z.string(),
  deliveredAt: z.nullable(z.string()),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** `GET /api/webhooks/{id}/deliveries`: newest first, one page. */
export const WebhookDeliveryQuery = z.object({
  pageOffset: PageQuery.shape.pageOffset,
  pageLength: PageQuery.shape.pageLength,
});
export type WebhookDeliveryQuery = z.infer<typeof WebhookDeliveryQuery>;

export const WebhookDeliveryList = listOf(WebhookDelivery);
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryList>;

/** `/api/webhooks/{id}/deliveries/{deliveryId}/resend` */
export const WebhookDeliveryParams = z.object({ id: wholeNumber(1, MAX_ID), deliveryId: wholeNumber(1, MAX_ID) });
