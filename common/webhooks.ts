/**
 * Signed webhooks (docs/webhooks.md, docs/decisions/066): the events an endpoint may subscribe to.
 * The first eight are the notification events of spec section 3, under the names the notification
 * settings use; the others are named `<object>.<verb>`. The API, the database and the admin page read
 * this one list.
 */
export const WEBHOOK_EVENTS = [
  'licenseExpiresSoon',
  'licenseExpired',
  'productDownload',
  'firstProductDownload',
  'invitationAccepted',
  'newVersion',
  'newProductLicense',
  'emailError',
  'licence.created',
  'licence.renewed',
  'version.published',
  'member.joined',
  'customer.created',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const isWebhookEvent = (value: unknown): value is WebhookEvent =>
  typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);

/** A delivery waits for its (next) attempt, reached the endpoint (2xx), or gave up. */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** An endpoint's URL: at most this many characters. */
export const WEBHOOK_URL_MAX = 2048;

/** The prefix of an endpoint's signing secret (then 32 random bytes in base64url). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The request headers of a delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'Portal-Signature';
export const WEBHOOK_EVENT_ID_HEADER = 'Portal-Event-Id';
