import type { Selectable } from 'kysely';
import { type DB, nowIso } from '../../db';
import type { LicenceSigningKeysTable } from '../../db/schema';

/** SQL of licence signing keys and of the licence a licence file states. */

export type SigningKeyRow = Selectable<LicenceSigningKeysTable>;

/** Every published key, the active one first, then the retired ones from the latest. */
export async function listSigningKeys(db: DB): Promise<SigningKeyRow[]> {
  const rows = await db.selectFrom('licenceSigningKeys').selectAll().orderBy('createdAt', 'desc').execute();
  return [...rows.filter((r) => r.retiredAt === null), ...rows.filter((r) => r.retiredAt !== null)];
}

/** The key that signs (served by the unique index on the rows not retired). */
export function activeSigningKey(db: DB): Promise<SigningKeyRow | undefined> {
  return db.selectFrom('licenceSigningKeys').selectAll().where('retiredAt', 'is', null).executeTakeFirst();
}

export function findSigningKey(db: DB, keyId: string): Promise<SigningKeyRow | undefined> {
  return db.selectFrom('licenceSigningKeys').selectAll().where('keyId', '=', keyId).executeTakeFirst();
}

/**
 * Retires the key that was read as the active one; it stays published. By its id: should another
 * node have replaced it meanwhile, nothing changes here and the insert of a second active key fails.
 */
export async function retireKey(db: DB, keyId: string, retiredAt = nowIso()) {
  await db
    .updateTable('licenceSigningKeys')
    .set({ retiredAt })
    .where('keyId', '=', keyId)
    .where('retiredAt', 'is', null)
    .execute();
}

export async function insertSigningKey(
  db: DB,
  key: Pick<SigningKeyRow, 'keyId' | 'algorithm' | 'publicKey' | 'privateKeySealed'>,
) {
  await db
    .insertInto('licenceSigningKeys')
    .values({ ...key, createdAt: nowIso(), retiredAt: null })
    .execute();
}

/** Makes a retired key the active one again (a configured key set back after another). */
export async function reactivateKey(db: DB, keyId: string) {
  await db.updateTable('licenceSigningKeys').set({ retiredAt: null }).where('keyId', '=', keyId).execute();
}

/**
 * The customer's licence of a product, with the product's name, for its licence file. A customer
 * holds one licence per product; should there be more, the one that ends last.
 */
export function findLicenceOfProduct(db: DB, customerId: number, productKey: string) {
  return db
    .selectFrom('licences')
    .innerJoin('products', 'products.key', 'licences.productKey')
    .select([
      'licences.id',
      'licences.productKey',
      'products.name as productName',
      'licences.accessLevel',
      'licences.startDate',
      'licences.endDate',
      'licences.data',
    ])
    .where('licences.customerId', '=', customerId)
    .where('licences.productKey', '=', productKey)
    .orderBy('licences.endDate', 'desc')
    .orderBy('licences.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}
