import crypto from 'node:crypto';

/**
 * Secrets the portal must be able to read back (licence and OpenID Connect signing keys, webhook
 * secrets, invitation keys, authenticator-app secrets) are kept sealed with AES-256-GCM under a key
 * derived from the server secret (SESSION_SECRET): a copy of the database alone opens none of them.
 * Each kind has a purpose of its own, so a sealed value of one kind never opens as another.
 *
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 *
 * The secret can be rotated (docs/security.md): values are sealed under the current secret, and
 * opened under the current one or any previous one (SESSION_SECRET_PREVIOUS); at start the portal
 * reseals under the current secret whatever only a previous one opens (server/security/reseal.ts).
 */
export interface SealPurpose {
  salt: string;
  info: string;
}

const SEAL_VERSION = 'v1';

function sealingKey(secret: string, purpose: SealPurpose) {
  return Buffer.from(crypto.hkdfSync('sha256', secret, purpose.salt, purpose.info, 32));
}

export function sealBytes(secret: string, purpose: SealPurpose, plain: Buffer): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', sealingKey(secret, purpose), iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [SEAL_VERSION, ...[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'))].join('.');
}

/** The secrets a sealed value may open under: the current one first, then the previous ones. */
export type OpeningSecrets = string | readonly string[];

/**
 * The bytes a sealed value holds, or null when it was sealed under none of the secrets, under
 * another purpose, or altered.
 */
export function unsealBytes(secrets: OpeningSecrets, purpose: SealPurpose, sealed: string): Buffer | null {
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const plain = unsealUnder(secret, purpose, sealed);
    if (plain) return plain;
  }
  return null;
}

/** Which of the secrets opens a sealed value (its index), or -1. */
export function openingSecretIndex(secrets: readonly string[], purpose: SealPurpose, sealed: string): number {
  return secrets.findIndex((secret) => unsealUnder(secret, purpose, sealed) !== null);
}

function unsealUnder(secret: string, purpose: SealPurpose, sealed: string): Buffer | null {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !tag || data === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', sealingKey(secret, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  } catch {
    return null;
  }
}

export const sealText = (secret: string, purpose: SealPurpose, plain: string) =>
  sealBytes(secret, purpose, Buffer.from(plain, 'utf8'));

export const unsealText = (secrets: OpeningSecrets, purpose: SealPurpose, sealed: string) =>
  unsealBytes(secrets, purpose, sealed)?.toString('utf8') ?? null;
