import crypto from 'node:crypto';
import { type Actor, actorLabel } from '../../actor';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db';
import { type SealPurpose, sealPrivateKey, unsealPrivateKey } from '../licence-files/keys';
import * as repo from './repo';

/**
 * The keys that sign the provider's ID tokens (docs/oidc.md): kept in the database and rotated like
 * the licence signing keys (decision 032): one active key signs; retired keys stay published in the
 * JWKS for a while so tokens they signed still verify. The private half is sealed by the licence
 * keys' own functions, under a key derived for this purpose.
 */

export const OIDC_KEY_SEAL: SealPurpose = { salt: 'oidc-signing-keys', info: 'portal oidc signing key' };

/** RS256: the one algorithm every OpenID Connect relying party must accept. */
const OIDC_SIGNING_ALGORITHM = 'RS256';

/** A retired key stays published this long: longer than any token it signed lives (docs/oidc.md). */
export const RETIRED_KEY_PUBLISHED_MS = 30 * 24 * 60 * 60 * 1000;

/** A private JWK as the provider's `jwks` takes it. */
type PrivateJwk = crypto.JsonWebKey & { kid: string; alg: string; use: 'sig' };

async function insertNewKey(ctx: AppContext, trx: AppContext['db'], activeKeyId: string | null): Promise<string> {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyId = crypto.randomBytes(9).toString('base64url');
  if (activeKeyId) await repo.retireSigningKey(trx, activeKeyId);
  await repo.insertSigningKey(trx, {
    keyId,
    algorithm: OIDC_SIGNING_ALGORITHM,
    publicJwk: JSON.stringify(publicKey.export({ format: 'jwk' })),
    privateKeySealed: sealPrivateKey(ctx.config.sessionSecret, privateKey, OIDC_KEY_SEAL),
  });
  ctx.log.info({ keyId }, 'new OpenID Connect signing key');
  return keyId;
}

const usable = (ctx: AppContext, row: repo.OidcSigningKeyRow) =>
  unsealPrivateKey(ctx.config.sealSecrets, row.privateKeySealed, OIDC_KEY_SEAL);

/**
 * Makes sure one key this node can sign with is active, at start; one is generated when there is
 * none (or when the active one was sealed under another SESSION_SECRET). Two nodes starting at once:
 * the unique index refuses the second active key, and that node takes the first one's.
 */
export async function ensureOidcSigningKey(ctx: AppContext): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await ctx.db.transaction().execute(async (trx) => {
        const active = await repo.activeSigningKey(trx);
        if (active && usable(ctx, active)) return active.keyId;
        if (active)
          ctx.log.warn({ keyId: active.keyId }, 'the active OpenID Connect key is not usable here: a new one is made');
        return insertNewKey(ctx, trx, active?.keyId ?? null);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('No OpenID Connect signing key could be made active');
}

/** `rotate-oidc-key`: a new key is active; nodes sign with it from their next start (docs/oidc.md). */
export async function rotateOidcSigningKey(
  ctx: AppContext,
  actor: Actor,
): Promise<{ keyId: string; retiredKeyId: string | null }> {
  return ctx.db.transaction().execute(async (trx) => {
    const previous = await repo.activeSigningKey(trx);
    const keyId = await insertNewKey(ctx, trx, previous?.keyId ?? null);
    ctx.log.info({ keyId, retiredKeyId: previous?.keyId ?? null, by: actorLabel(actor) }, 'OpenID Connect key rotated');
    return { keyId, retiredKeyId: previous?.keyId ?? null };
  });
}

/**
 * The provider's key set: the active key first (the provider signs with the first key of the
 * algorithm), then the keys retired within RETIRED_KEY_PUBLISHED_MS, which only verify.
 */
export async function providerJwks(ctx: AppContext, now = Date.now()): Promise<{ keys: PrivateJwk[] }> {
  const rows = await repo.listSigningKeys(ctx.db);
  const keys: PrivateJwk[] = [];
  for (const row of rows) {
    if (row.retiredAt && now - Date.parse(row.retiredAt) > RETIRED_KEY_PUBLISHED_MS) continue;
    const privateKey = usable(ctx, row);
    if (!privateKey) continue;
    keys.push({ ...privateKey.export({ format: 'jwk' }), kid: row.keyId, alg: row.algorithm, use: 'sig' });
  }
  return { keys };
}
