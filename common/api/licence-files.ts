import { z } from 'zod/mini';
import { ACCESS_LEVELS } from '../domain';
import { IdParam, REQUIRED } from './common';

/**
 * Signed licence files (docs/licence-files.md, docs/decisions/032): the keys the portal publishes,
 * and the file `GET /api/download/license/{productKey}?customerId` sends.
 */

/** The one signature algorithm of licence files. */
export const LICENCE_SIGNING_ALGORITHMS = ['Ed25519'] as const;
export type LicenceSigningAlgorithm = (typeof LICENCE_SIGNING_ALGORITHMS)[number];

/** A published public key: the active one, and those retired (they no longer sign, files they signed still verify). */
const LicenceSigningKey = z.object({
  keyId: z.string(),
  algorithm: z.enum(LICENCE_SIGNING_ALGORITHMS),
  /** PEM, SubjectPublicKeyInfo */
  publicKey: z.string(),
  createdAt: z.string(),
  /** null for the active key */
  retiredAt: z.nullable(z.string()),
});
type LicenceSigningKey = z.infer<typeof LicenceSigningKey>;

export const LicenceSigningKeyList = z.object({ data: z.array(LicenceSigningKey) });
export type LicenceSigningKeyList = z.infer<typeof LicenceSigningKeyList>;

/** What a licence file states, signed: the JSON its `payload` holds. */
export const LicenceFilePayload = z.object({
  licenceId: z.int(),
  customer: z.object({ name: z.string(), key: z.string() }),
  product: z.object({ key: z.string(), name: z.string() }),
  accessLevel: z.enum(ACCESS_LEVELS),
  startDate: z.string(),
  endDate: z.string(),
  data: z.record(z.string(), z.unknown()),
  /** when the portal issued this file (ISO-8601 UTC) */
  issuedAt: z.string(),
  keyId: z.string(),
});
export type LicenceFilePayload = z.infer<typeof LicenceFilePayload>;

/** The format version of licence files; a change that old verifiers cannot read gets a new one. */
export const LICENCE_FILE_FORMAT = 1;

/**
 * The licence file: `payload` is the UTF-8 JSON of LicenceFilePayload in base64url, and `signature`
 * the Ed25519 signature (base64url) of the payload string's own ASCII bytes, so a verifier checks the
 * bytes it received and needs no canonical JSON.
 */
export const LicenceFile = z.object({
  format: z.literal(LICENCE_FILE_FORMAT),
  algorithm: z.enum(LICENCE_SIGNING_ALGORITHMS),
  keyId: z.string(),
  payload: z.string(),
  signature: z.string(),
});
export type LicenceFile = z.infer<typeof LicenceFile>;

export const LicenceFileParams = z.object({
  productKey: z.string().check(z.minLength(1, REQUIRED), z.maxLength(100)),
});

export const LicenceFileQuery = z.object({ customerId: IdParam.shape.id });
