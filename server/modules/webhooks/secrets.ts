import { type OpeningSecrets, sealText, unsealText } from '../../security/seal';
import crypto from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../../common/webhooks';

/**
 * Endpoint signing secrets (docs/decisions/066): `whsec_` and 32 random bytes in base64url, shown to
 * the admin once. The portal needs the secret itself to sign, so it cannot keep a hash: it keeps it
 * sealed with AES-256-GCM under a key derived from the server secret (SESSION_SECRET), like invitation
 * keys and licence signing keys. A copy of the database alone signs nothing.
 */
export const newWebhookSecret = () => WEBHOOK_SECRET_PREFIX + crypto.randomBytes(32).toString('base64url');

export const WEBHOOK_SEAL = { salt: 'webhook-secrets', info: 'portal webhook signing secret' };

export const sealWebhookSecret = (serverSecret: string, secret: string) => sealText(serverSecret, WEBHOOK_SEAL, secret);

/** The secret a sealed value holds, or null when it was sealed under another server secret or altered. */
export const unsealWebhookSecret = (serverSecrets: OpeningSecrets, sealed: string) =>
  unsealText(serverSecrets, WEBHOOK_SEAL, sealed);
