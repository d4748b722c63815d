import type { Platform } from '../../../common/domain';
import { type DB, nowIso } from '../../db';

/** SQL of artifacts and product API tokens (docs/decisions/036). */

export async function productExists(db: DB, productKey: string): Promise<boolean> {
  return (await db.selectFrom('products').select('key').where('key', '=', productKey).executeTakeFirst()) !== undefined;
}

/** The live token of a hash, with its product; undefined for an unknown or revoked one. */
export function findTokenByHash(db: DB, tokenHash: string) {
  return db
    .selectFrom('productTokens')
    .select(['id', 'name', 'productKey'])
    .where('tokenHash', '=', tokenHash)
    .executeTakeFirst();
}

/** The token opened a route: its last-used date moves. */
export async function touchToken(db: DB, id: number): Promise<void> {
  await db.updateTable('productTokens').set({ lastUsedAt: nowIso() }).where('id', '=', id).execute();
}

const LISTED_TOKEN = ['id', 'name', 'createdAt', 'lastUsedAt'] as const;

/** A product's tokens, newest first. */
export function listTokens(db: DB, productKey: string) {
  return db
    .selectFrom('productTokens')
    .select(LISTED_TOKEN)
    .where('productKey', '=', productKey)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function insertToken(db: DB, row: { productKey: string; name: string; tokenHash: string; createdBy: number }) {
  return db
    .insertInto('productTokens')
    .values({ ...row, createdAt: nowIso(), lastUsedAt: null })
    .returning(LISTED_TOKEN)
    .executeTakeFirstOrThrow();
}

/** Deletes a product's token; its name, or null when the product has no such token. */
export async function deleteToken(db: DB, productKey: string, id: number): Promise<string | null> {
  const row = await db
    .deleteFrom('productTokens')
    .where('id', '=', id)
    .where('productKey', '=', productKey)
    .returning('name')
    .executeTakeFirst();
  return row?.name ?? null;
}

export function findVersion(db: DB, versionId: number) {
  return db
    .selectFrom('versions')
    .select(['id', 'productKey', 'semVer', 'published'])
    .where('id', '=', versionId)
    .executeTakeFirst();
}

/** The version's product, for the upload's access rule; null when there is no such version. */
export async function productOfVersion(db: DB, versionId: number): Promise<string | null> {
  const row = await db.selectFrom('versions').select('productKey').where('id', '=', versionId).executeTakeFirst();
  return row?.productKey ?? null;
}

/**
 * Takes the version row as the lock of its artifacts (uploads of one version take their turns),
 * only while it is unpublished: false when it is published (or gone).
 */
export async function lockUnpublishedVersion(db: DB, versionId: number): Promise<boolean> {
  const locked = await db
    .updateTable('versions')
    .set({ updatedAt: nowIso() })
    .where('id', '=', versionId)
    .where('published', '=', 0)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) > 0;
}

/**
 * Replaces the version's artifact of a platform: the previous row is deleted (its downloads keep their
 * record and lose the link) and a new one inserted. Returns the new row and the previous file's key.
 */
export async function replaceArtifact(
  db: DB,
  row: { versionId: number; platform: Platform; fileName: string; storageKey: string; size: number; sha256: string },
) {
  const previous = await db
    .selectFrom('artifacts')
    .select(['id', 'storageKey'])
    .where('versionId', '=', row.versionId)
    .where('platform', '=', row.platform)
    .executeTakeFirst();
  if (previous) await db.deleteFrom('artifacts').where('id', '=', previous.id).execute();
  const artifact = await db
    .insertInto('artifacts')
    .values({ ...row, createdAt: nowIso() })
    .returning(['id', 'platform', 'fileName', 'size', 'sha256', 'createdAt'])
    .executeTakeFirstOrThrow();
  return { artifact, previousKey: previous?.storageKey ?? null };
}

/** Deletes the version's artifact of a platform; its storage key, or null when there was none. */
export async function deleteArtifact(db: DB, versionId: number, platform: Platform): Promise<string | null> {
  const row = await db
    .deleteFrom('artifacts')
    .where('versionId', '=', versionId)
    .where('platform', '=', platform)
    .returning('storageKey')
    .executeTakeFirst();
  return row?.storageKey ?? null;
}

/** Which of these storage keys an artifact row holds. */
export async function knownStorageKeys(db: DB, keys: string[]): Promise<Set<string>> {
  const rows = await db.selectFrom('artifacts').select('storageKey').where('storageKey', 'in', keys).execute();
  return new Set(rows.map((row) => row.storageKey));
}
