import type { Insertable } from 'kysely';
import { type DB, nowIso } from '../../db';
import type { ArtifactsTable, ProductsTable, VersionsTable } from '../../db/schema';

/** SQL of the catalogue: products, their versions and the versions' artifacts. */

type New<T> = Omit<Insertable<T>, 'id' | 'createdAt' | 'updatedAt'> & { createdAt?: string };

export async function insertProduct(db: DB, product: New<ProductsTable>) {
  const now = product.createdAt ?? nowIso();
  await db
    .insertInto('products')
    .values({ ...product, createdAt: now, updatedAt: now })
    .execute();
  return { key: product.key };
}

export async function insertVersion(db: DB, version: New<VersionsTable>) {
  const now = version.createdAt ?? nowIso();
  return db
    .insertInto('versions')
    .values({ ...version, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function insertArtifact(db: DB, artifact: New<ArtifactsTable>) {
  return db
    .insertInto('artifacts')
    .values({ ...artifact, createdAt: artifact.createdAt ?? nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
}
