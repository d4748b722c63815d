import crypto from 'node:crypto';
import type { DB } from '../../db';
import { hashToken } from '../auth/hash';
import { findInvitationByHash } from './repo';

/**
 * Invitation keys (docs/decisions/027): 256 random bits in base64url. The database keeps the key's
 * SHA-256 (`invitations.key_hash`), used to find the invitation a link names, and the key sealed
 * with AES-256-GCM under a key derived from the server secret (`invitations.key_sealed`), so that an
 * admin can copy the very link that was mailed. A leaked database alone opens no invitation.
 */
export const newInvitationKey = () => crypto.randomBytes(32).toString('base64url');

export const invitationKeyHash = (key: string) => hashToken(key);

/** The invitation a link's key stands for, whatever its state (the caller decides what it allows). */
export function findInvitationByKey(db: DB, key: string) {
  return findInvitationByHash(db, invitationKeyHash(key));
}

/** The page that accepts an invitation: /{locale}/invitation/{key}. */
export function invitationLink(baseUrl: string, locale: string, key: string) {
  return `${baseUrl}/${locale}/invitation/${encodeURIComponent(key)}`;
}

const SEAL_VERSION = 'v1';

function sealingKey(secret: string) {
  return Buffer.from(crypto.hkdfSync('sha256', secret, 'invitation-keys', 'portal invitation link', 32));
}

/** `v1.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function sealInvitationKey(secret: string, invitationKeyValue: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const data = Buffer.concat([cipher.update(invitationKeyValue, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
  return [SEAL_VERSION, ...parts].join('.');
}

/** The key a sealed value holds, or null when it was sealed under another secret or altered. */
export function unsealInvitationKey(secret: string, sealed: string): string | null {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== SEAL_VERSION || !iv || !tag || data === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', sealingKey(secret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** A fresh key with what the database stores of it. */
export function issueInvitationKey(secret: string) {
  const key = newInvitationKey();
  return { key, keyHash: invitationKeyHash(key), keySealed: sealInvitationKey(secret, key) };
}
