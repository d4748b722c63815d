import type { Selectable } from 'kysely';
import type { CustomizationType } from '../../../common/domain';
import { type DB, nowIso } from '../../db';
import type { CustomizationsTable } from '../../db/schema';

/** SQL of customizations (the row itself is inserted by licences/repo.ts `insertCustomization`). */

/** A product as a customization needs it, with whether the customer holds a licence of it. */
interface LicensedProduct {
  key: string;
  name: string;
  customizationType: CustomizationType;
  licensed: boolean;
}

export async function findLicensedProduct(
  db: DB,
  customerId: number,
  productKey: string,
): Promise<LicensedProduct | null> {
  const row = await db
    .selectFrom('products')
    .select(['products.key', 'products.name', 'products.customizationType'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('licences')
            .select('licences.id')
            .where('licences.customerId', '=', customerId)
            .whereRef('licences.productKey', '=', 'products.key'),
        )
        .as('licensed'),
    )
    .where('products.key', '=', productKey)
    .executeTakeFirst();
  return row ? { ...row, licensed: Boolean(row.licensed) } : null;
}

/** A product's customization type, or null when there is no product with this key. */
export async function productCustomizationType(db: DB, productKey: string): Promise<CustomizationType | null> {
  const row = await db
    .selectFrom('products')
    .select('customizationType')
    .where('key', '=', productKey)
    .executeTakeFirst();
  return row?.customizationType ?? null;
}

/** The customization types (none left out) the catalogue's products offer. */
export async function offeredCustomizationTypes(db: DB): Promise<CustomizationType[]> {
  const rows = await db
    .selectFrom('products')
    .select('customizationType')
    .distinct()
    .where('customizationType', '!=', 'none')
    .execute();
  return rows.map((row) => row.customizationType);
}

/** The customization types (none left out) of the products the customer holds a licence of. */
export async function licensedCustomizationTypes(db: DB, customerId: number): Promise<CustomizationType[]> {
  const rows = await db
    .selectFrom('licences')
    .innerJoin('products', 'products.key', 'licences.productKey')
    .select('products.customizationType')
    .distinct()
    .where('licences.customerId', '=', customerId)
    .where('products.customizationType', '!=', 'none')
    .execute();
  return rows.map((row) => row.customizationType);
}

export type CustomizationRow = Selectable<CustomizationsTable> & {
  customerName: string;
  productName: string;
  customizationType: CustomizationType;
};

function withNames(db: DB) {
  return db
    .selectFrom('customizations')
    .innerJoin('customers', 'customers.id', 'customizations.customerId')
    .innerJoin('products', 'products.key', 'customizations.productKey')
    .selectAll('customizations')
    .select(['customers.name as customerName', 'products.name as productName', 'products.customizationType']);
}

export async function findCustomization(db: DB, id: number): Promise<CustomizationRow | null> {
  return (await withNames(db).where('customizations.id', '=', id).executeTakeFirst()) ?? null;
}

/** The customer of a customization, or null when there is none with this id. */
export async function customerOfCustomization(db: DB, id: number): Promise<number | null> {
  const row = await db.selectFrom('customizations').select('customerId').where('id', '=', id).executeTakeFirst();
  return row?.customerId ?? null;
}

export async function customizationExists(db: DB, customerId: number, productKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('customizations')
    .select('id')
    .where('customerId', '=', customerId)
    .where('productKey', '=', productKey)
    .executeTakeFirst();
  return row !== undefined;
}

/** The customer's customizations (optionally of one product), by product name. */
export async function listCustomizations(db: DB, customerId: number, productKey?: string): Promise<CustomizationRow[]> {
  let query = withNames(db).where('customizations.customerId', '=', customerId);
  if (productKey !== undefined) query = query.where('customizations.productKey', '=', productKey);
  return query.orderBy('products.name').orderBy('customizations.id').execute();
}

/** Points the customer's licences of the product to the customization. */
export async function linkLicences(db: DB, customerId: number, productKey: string, customizationId: number) {
  await db
    .updateTable('licences')
    .set({ customizationId, updatedAt: nowIso() })
    .where('customerId', '=', customerId)
    .where('productKey', '=', productKey)
    .execute();
}

export async function updateCustomization(
  db: DB,
  id: number,
  changes: Partial<Pick<Selectable<CustomizationsTable>, 'versionType' | 'customConfig' | 'enabled'>>,
) {
  await db
    .updateTable('customizations')
    .set({ ...changes, updatedAt: nowIso() })
    .where('id', '=', id)
    .execute();
}
