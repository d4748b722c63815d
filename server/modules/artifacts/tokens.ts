import crypto from 'node:crypto';
import type { CreatedProductToken, CreateProductTokenBody, ProductToken } from '../../../common/api/catalogue';
import { type Actor, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import { type DB, nowIso } from '../../db';
import { notFound } from '../../http-error';

/**
 * Product API tokens (docs/decisions/036): a release pipeline's credential for uploading its
 * product's artifacts, and nothing else. `pt_` and 32 random bytes in base64url; only the sha256 is
 * kept, so the token is shown once, when created.
 */

export const TOKEN_PREFIX = 'pt_';
export const PRODUCT_NOT_FOUND = 'Product not found';

export const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/** `Authorization: Bearer pt_…`: the token, or null when the request carries none. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/** The product a live token belongs to; null for an unknown or revoked token. */
export async function findToken(db: DB, token: string): Promise<{ id: number; productKey: string } | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
  const row = await db
    .selectFrom('productTokens')
    .select(['id', 'productKey'])
    .where('tokenHash', '=', hashToken(token))
    .executeTakeFirst();
  return row ?? null;
}

/** The token opened a route: its last-used date moves. */
export async function touchToken(db: DB, id: number): Promise<void> {
  await db.updateTable('productTokens').set({ lastUsedAt: nowIso() }).where('id', '=', id).execute();
}

async function assertProduct(db: DB, productKey: string): Promise<void> {
  const product = await db.selectFrom('products').select('key').where('key', '=', productKey).executeTakeFirst();
  if (!product) throw notFound(PRODUCT_NOT_FOUND);
}

const listed = ['id', 'name', 'createdAt', 'lastUsedAt'] as const;

export async function listTokens(ctx: AppContext, productKey: string): Promise<{ data: ProductToken[] }> {
  await assertProduct(ctx.db, productKey);
  const data = await ctx.db
    .selectFrom('productTokens')
    .select(listed)
    .where('productKey', '=', productKey)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return { data };
}

export async function createToken(
  ctx: AppContext,
  actor: Actor,
  input: { productKey: string; body: CreateProductTokenBody },
): Promise<CreatedProductToken> {
  const { user } = signedInUser(actor);
  await assertProduct(ctx.db, input.productKey);
  const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
  const row = await ctx.db
    .insertInto('productTokens')
    .values({
      productKey: input.productKey,
      name: input.body.name,
      tokenHash: hashToken(token),
      createdBy: user.id,
      createdAt: nowIso(),
      lastUsedAt: null,
    })
    .returning(listed)
    .executeTakeFirstOrThrow();
  ctx.log.info({ productKey: input.productKey, tokenId: row.id, userId: user.id }, 'product API token created');
  return { ...row, token };
}

/** Revoking deletes the token: the next request with it gets 401. */
export async function revokeToken(
  ctx: AppContext,
  actor: Actor,
  input: { productKey: string; id: number },
): Promise<void> {
  const { user } = signedInUser(actor);
  const result = await ctx.db
    .deleteFrom('productTokens')
    .where('id', '=', input.id)
    .where('productKey', '=', input.productKey)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw notFound('Token not found');
  ctx.log.info({ productKey: input.productKey, tokenId: input.id, userId: user.id }, 'product API token revoked');
}
