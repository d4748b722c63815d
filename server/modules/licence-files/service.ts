import crypto from 'node:crypto';
import type { LicenceSigningKeyList } from '../../../common/api/licence-files';
import { type Actor, actorLabel } from '../../actor';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db';
import { ConfigError } from '../../config';
import { conflict } from '../../http-error';
import {
  configuredSigningKeyPair,
  generateSigningKeyPair,
  SIGNING_ALGORITHM,
  type SigningKeyPair,
  sealPrivateKey,
  unsealPrivateKey,
} from './keys';
import * as repo from './repo';

/**
 * The keys that sign licence files (docs/licence-files.md, docs/decisions/032). One key is active and
 * signs; retired keys stay published so that the files they signed still verify.
 */

export const CONFIGURED_KEY_ROTATION =
  'The licence signing key is configured (LICENCE_SIGNING_KEY or LICENCE_SIGNING_KEY_PATH): to rotate it, configure the new key and restart the portal; the previous key stays published.';

/** Private keys already unsealed, per context (the database holds them sealed). */
const unsealed = new WeakMap<AppContext, Map<string, crypto.KeyObject>>();

/** The configured key pair, worked out once per context. */
const configuredPairs = new WeakMap<AppContext, SigningKeyPair>();

function configuredKey(ctx: AppContext): SigningKeyPair | null {
  if (!ctx.config.licenceSigningKey) return null;
  let pair = configuredPairs.get(ctx);
  if (!pair) {
    pair = configuredSigningKeyPair(ctx.config.licenceSigningKey);
    configuredPairs.set(ctx, pair);
  }
  return pair;
}

/** The private key of a stored key this node can sign with, or null. */
function privateKeyOf(ctx: AppContext, row: repo.SigningKeyRow): crypto.KeyObject | null {
  const configured = configuredKey(ctx);
  if (configured && row.keyId === configured.keyId) return configured.privateKey;
  if (!row.privateKeySealed) return null;
  let cache = unsealed.get(ctx);
  if (!cache) {
    cache = new Map();
    unsealed.set(ctx, cache);
  }
  const cached = cache.get(row.keyId);
  if (cached) return cached;
  const key = unsealPrivateKey(ctx.config.sealSecrets, row.privateKeySealed);
  if (key) cache.set(row.keyId, key);
  return key;
}

/**
 * Makes sure one key this node can sign with is active, at start: the configured key (made active,
 * the previous one retired) or else the generated one in the database (one is generated, once, when
 * there is none that this node can use). Two nodes starting at once cannot both make a key active:
 * the unique index refuses the second, which then takes the first one's. Returns the active key's id.
 */
export async function ensureSigningKey(ctx: AppContext): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const active = await repo.activeSigningKey(trx);
        const configured = configuredKey(ctx);
        if (configured) {
          if (active?.keyId === configured.keyId) return active.keyId;
          const known = await repo.findSigningKey(trx, configured.keyId);
          if (active) await repo.retireKey(trx, active.keyId);
          if (known) await repo.reactivateKey(trx, configured.keyId);
          else {
            await repo.insertSigningKey(trx, {
              keyId: configured.keyId,
              algorithm: SIGNING_ALGORITHM,
              publicKey: configured.publicKey,
              privateKeySealed: null,
            });
          }
          ctx.log.info({ keyId: configured.keyId }, 'licence files are signed with the configured key');
          return configured.keyId;
        }
        if (active && privateKeyOf(ctx, active)) return active.keyId;
        if (active && !ctx.config.allowNewSigningKey) throw new ConfigError(NO_USABLE_SIGNING_KEY(active.keyId));
        if (active) {
          // A configured key no longer configured, or a key sealed under another SESSION_SECRET: it
          // stays published, a new one signs.
          ctx.log.warn({ keyId: active.keyId }, 'the active licence signing key is not usable here: a new one is made');
        }
        return await replaceActiveKey(ctx, trx, active?.keyId ?? null);
      });
    } catch (error) {
      // another node made its key active first: read it on the next attempt
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('No licence signing key could be made active');
}

/**
 * Production refuses to replace a signing key it cannot open: the products already shipped trust
 * only the keys they know, so a new one by accident would make every licence file issued from then on
 * fail their offline check. Said at start, before the portal listens.
 */
const NO_USABLE_SIGNING_KEY = (keyId: string) =>
  `The active licence signing key (${keyId}) opens under neither SESSION_SECRET nor SESSION_SECRET_PREVIOUS: ` +
  'was SESSION_SECRET changed without keeping the old one in SESSION_SECRET_PREVIOUS? Set it back (docs/security.md), ' +
  'or start once with ALLOW_NEW_SIGNING_KEY=true (or --allow-new-signing-key) to sign with a new key from now on.';

/** Retires the active key read before and stores a new generated one (in the caller's transaction). */
async function replaceActiveKey(ctx: AppContext, trx: AppContext['db'], activeKeyId: string | null): Promise<string> {
  const pair = generateSigningKeyPair();
  if (activeKeyId) await repo.retireKey(trx, activeKeyId);
  await repo.insertSigningKey(trx, {
    keyId: pair.keyId,
    algorithm: SIGNING_ALGORITHM,
    publicKey: pair.publicKey,
    privateKeySealed: sealPrivateKey(ctx.config.sessionSecret, pair.privateKey),
  });
  ctx.log.info({ keyId: pair.keyId }, 'new licence signing key');
  return pair.keyId;
}

/**
 * `rotate-licence-key`: a new generated key signs from now on; the previous one is retired and stays
 * published. Refused with a configured key, which the operator rotates by configuring a new one.
 */
export async function rotateSigningKey(
  ctx: AppContext,
  actor: Actor,
): Promise<{ keyId: string; retiredKeyId: string | null }> {
  if (configuredKey(ctx)) throw conflict(CONFIGURED_KEY_ROTATION);
  return ctx.db.transaction().execute(async (trx) => {
    const previous = await repo.activeSigningKey(trx);
    const keyId = await replaceActiveKey(ctx, trx, previous?.keyId ?? null);
    ctx.log.info(
      { keyId, retiredKeyId: previous?.keyId ?? null, by: actorLabel(actor) },
      'licence signing key rotated',
    );
    return { keyId, retiredKeyId: previous?.keyId ?? null };
  });
}

/** `GET /api/licence-files/keys`: every published key, the active one first. */
export async function listPublishedKeys(ctx: AppContext, _actor: Actor): Promise<LicenceSigningKeyList> {
  const rows = await repo.listSigningKeys(ctx.db);
  return {
    data: rows.map((row) => ({
      keyId: row.keyId,
      algorithm: row.algorithm,
      publicKey: row.publicKey,
      createdAt: row.createdAt,
      retiredAt: row.retiredAt,
    })),
  };
}

/** The active key, with its private half; made at need when none this node can use is active. */
export async function activeSigner(ctx: AppContext): Promise<{ keyId: string; privateKey: crypto.KeyObject }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const row = await repo.activeSigningKey(ctx.db);
    const privateKey = row && privateKeyOf(ctx, row);
    if (row && privateKey) return { keyId: row.keyId, privateKey };
    await ensureSigningKey(ctx);
  }
  throw new Error('No usable licence signing key');
}
