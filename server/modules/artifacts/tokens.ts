import crypto from 'node:crypto';
import type { CreatedProductToken, CreateProductTokenBody, ProductToken } from '../../../common/api/catalogue';
import { type Actor, type ProductTokenRef, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { notFound } from '../../http-error';
import { auditActorOf, insertAuditEntry } from '../audit/repo';
import * as repo from './repo';

/**
 * Product API tokens (docs/decisions/036): a release pipeline's credential for uploading its
 * product's artifacts, and nothing else. `pt_` and 32 random bytes in base64url; only the sha256 is
 * kept, so the token is shown once, when created.
 */

export const TOKEN_PREFIX = 'pt_';
const PRODUCT_NOT_FOUND = 'Product not found';

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** `Authorization: Bearer pt_…`: the token, or null when the request carries none. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/** A live token, with its name and product; null for an unknown or revoked token. */
export async function findToken(db: DB, token: string): Promise<ProductTokenRef | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
  return (await repo.findTokenByHash(db, hashToken(token))) ?? null;
}

async function assertProduct(db: DB, productKey: string): Promise<void> {
  if (!(await repo.productExists(db, productKey))) throw notFound(PRODUCT_NOT_FOUND);
}

export async function listTokens(
  ctx: AppContext,
  _actor: Actor,
  input: { productKey: string },
): Promise<{ data: ProductToken[] }> {
  await assertProduct(ctx.db, input.productKey);
  return { data: await repo.listTokens(ctx.db, input.productKey) };
}

/** A new token of the product, written with its `createProductToken` entry (of no customer). */
export async function createToken(
  ctx: AppContext,
  actor: Actor,
  input: { productKey: string; body: CreateProductTokenBody },
): Promise<CreatedProductToken> {
  const { user } = signedInUser(actor);
  await assertProduct(ctx.db, input.productKey);
  const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
  const row = await ctx.db.transaction().execute(async (trx) => {
    const created = await repo.insertToken(trx, {
      productKey: input.productKey,
      name: input.body.name,
      tokenHash: hashToken(token),
      createdBy: user.id,
    });
    await insertAuditEntry(trx, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'createProductToken',
      data: { productKey: input.productKey, tokenId: created.id, tokenName: created.name },
    });
    return created;
  });
  ctx.log.info({ productKey: input.productKey, tokenId: row.id, userId: user.id }, 'product API token created');
  return { ...row, token };
}

/** Revoking deletes the token: the next request with it gets 401. A `revokeProductToken` entry says who. */
export async function revokeToken(
  ctx: AppContext,
  actor: Actor,
  input: { productKey: string; id: number },
): Promise<void> {
  const { user } = signedInUser(actor);
  await ctx.db.transaction().execute(async (trx) => {
    const name = await repo.deleteToken(trx, input.productKey, input.id);
    if (name === null) throw notFound('Token not found');
    await insertAuditEntry(trx, {
      customerId: null,
      by: auditActorOf(actor),
      action: 'revokeProductToken',
      data: { productKey: input.productKey, tokenId: input.id, tokenName: name },
    });
  });
  ctx.log.info({ productKey: input.productKey, tokenId: input.id, userId: user.id }, 'product API token revoked');
}
