import { type OpeningSecrets, sealText, unsealText } from '../../security/seal';
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

export const INVITATION_SEAL = { salt: 'invitation-keys', info: 'portal invitation link' };

export const sealInvitationKey = (secret: string, invitationKeyValue: string) =>
  sealText(secret, INVITATION_SEAL, invitationKeyValue);

/** The key a sealed value holds, or null when it was sealed under another secret or altered. */
export const unsealInvitationKey = (secrets: OpeningSecrets, sealed: string) =>
  unsealText(secrets, INVITATION_SEAL, sealed);

/** A fresh key with what the database stores of it. */
export function issueInvitationKey(secret: string) {
  const key = newInvitationKey();
  return { key, keyHash: invitationKeyHash(key), keySealed: sealInvitationKey(secret, key) };
}
