import type { Insertable } from 'kysely';
import { type DB, nowIso } from '../../db';
import type { DownloadsTable } from '../../db/schema';

/**
 * Downloads of artifacts. Both questions the portal asks of them are index look-ups
 * (downloads_licence_id_created_at_idx, licences_customer_product_unique), however long the
 * history grows.
 */

export async function recordDownload(
  db: DB,
  download: Omit<Insertable<DownloadsTable>, 'id' | 'createdAt'> & { createdAt?: string },
) {
  return db
    .insertInto('downloads')
    .values({ ...download, createdAt: download.createdAt ?? nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** When the licence was last used to download something (the licence's "latest download"). */
export async function latestDownloadAt(db: DB, licenceId: number): Promise<string | null> {
  const row = await db
    .selectFrom('downloads')
    .select('createdAt')
    .where('licenceId', '=', licenceId)
    .orderBy('createdAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.createdAt ?? null;
}

/** Whether the customer has downloaded the product before, through any of its licences (notifyFirstProductDownload). */
export async function hasDownloadedProduct(db: DB, customerId: number, productKey: string): Promise<boolean> {
  const row = await db
    .selectFrom('licences')
    .innerJoin('downloads', 'downloads.licenceId', 'licences.id')
    .select('downloads.id')
    .where('licences.customerId', '=', customerId)
    .where('licences.productKey', '=', productKey)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
