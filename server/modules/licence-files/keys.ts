import { type OpeningSecrets, type SealPurpose, sealBytes, unsealBytes } from '../../security/seal';
import crypto from 'node:crypto';

/**
 * The crypto of licence signing keys (docs/decisions/032): Ed25519 key pairs, their key ids, and the
 * private half of a generated key sealed at rest with AES-256-GCM under a key derived from the server
 * secret (SESSION_SECRET), like invitation keys: a copy of the database alone signs nothing.
 */

export const SIGNING_ALGORITHM = 'Ed25519';

/** A key pair ready to store: the public half as PEM SPKI, the private one as a KeyObject. */
export interface SigningKeyPair {
  keyId: string;
  publicKey: string;
  privateKey: crypto.KeyObject;
}

/** A generated key's id: 72 random bits in base64url (12 characters). */
const newKeyId = () => crypto.randomBytes(9).toString('base64url');

export function generateSigningKeyPair(): SigningKeyPair {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
  return { keyId: newKeyId(), publicKey: publicPem(publicKey), privateKey };
}

const publicPem = (key: crypto.KeyObject) => key.export({ type: 'spki', format: 'pem' }).toString();

/**
 * A configured key (LICENCE_SIGNING_KEY): its id is the start of its public key's SHA-256, so every
 * node that holds the same key names it the same, and a new configured key gets a new id.
 */
export function configuredSigningKeyPair(pem: string): SigningKeyPair {
  const privateKey = crypto.createPrivateKey(pem);
  const publicKey = crypto.createPublicKey(privateKey);
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const keyId = crypto.createHash('sha256').update(der).digest('base64url').slice(0, 12);
  return { keyId, publicKey: publicPem(publicKey), privateKey };
}

export type { SealPurpose };

/** What licence signing keys are sealed for (the OpenID Connect provider's keys have their own). */
export const LICENCE_KEY_SEAL: SealPurpose = { salt: 'licence-signing-keys', info: 'portal licence signing key' };

/** The private key as PKCS#8 DER, sealed (server/security/seal.ts). */
export function sealPrivateKey(secret: string, key: crypto.KeyObject, purpose = LICENCE_KEY_SEAL): string {
  return sealBytes(secret, purpose, key.export({ type: 'pkcs8', format: 'der' }));
}

/** The private key a sealed value holds, or null when it was sealed under another secret or altered. */
export function unsealPrivateKey(
  secrets: OpeningSecrets,
  sealed: string,
  purpose = LICENCE_KEY_SEAL,
): crypto.KeyObject | null {
  const der = unsealBytes(secrets, purpose, sealed);
  if (!der) return null;
  try {
    return crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } catch {
    return null;
  }
}
