import crypto from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '../../../common/webhooks';

/**
 * Endpoint signing secrets (docs/decisions/066): `whsec_` and 32 random bytes in base64url, shown to
 * the admin once. The portal needs the secret itself to sign, so it cannot keep a hash: it keeps it
 * sealed with AES-256-GCM under a key derived from the server secret (SESSION_SECRET), like invitation
 * keys and licence signing keys. A copy of the database alone signs nothing.
 */
export const newWebhookSecret = () => WEBHOOK_SECRET_PREFIX + crypto.randomBytes(32).toString('base64url');

const SEAL_VERSION = 'v1';

function sealingKey(serverSecret: string) {
  return Buffer.from(crypto.hkdfSync('sha256', serverSecret, 'webhook-secrets', 'portal webhook signing secret', 32));
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function sealWebhookSecret(serverSecret: string, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', sealingKey(serverSecret), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [SEAL_VERSION, ...[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'))].join('.');
}

/** The secret a sealed value holds, or null when it was sealed under another server secret or altered. */
export function unsealWebhookSecret(serverSecret: string, sealed: string): string | null {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !tag || data === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', sealingKey(serverSecret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
