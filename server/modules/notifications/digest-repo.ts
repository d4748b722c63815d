import type { DB } from '../../db';

/** The downloads a digest tells of (digest.ts), and how far the last one went, per customer. */

export async function lastDigested(db: DB, customerId: number): Promise<number> {
  const row = await db
    .selectFrom('downloadDigests')
    .select('lastDownloadId')
    .where('customerId', '=', customerId)
    .executeTakeFirst();
  return row?.lastDownloadId ?? 0;
}

export async function markDigested(db: DB, customerId: number, lastDownloadId: number): Promise<void> {
  await db
    .insertInto('downloadDigests')
    .values({ customerId, lastDownloadId })
    .onConflict((conflict) => conflict.column('customerId').doUpdateSet({ lastDownloadId }))
    .execute();
}

/** The customer's downloads after `afterId`, oldest first, with what a digest line names. */
export function downloadsAfter(db: DB, customerId: number, afterId: number, limit: number) {
  return db
    .selectFrom('downloads')
    .innerJoin('licences', 'licences.id', 'downloads.licenceId')
    .innerJoin('versions', 'versions.id', 'downloads.versionId')
    .innerJoin('products', 'products.key', 'licences.productKey')
    .leftJoin('users', 'users.id', 'downloads.userId')
    .select([
      'downloads.id',
      'downloads.createdAt',
      'downloads.platform',
      'licences.productKey',
      'products.name as productName',
      'versions.semVer',
      'users.email as userEmail',
    ])
    .where('licences.customerId', '=', customerId)
    .where('downloads.id', '>', afterId)
    .orderBy('downloads.id')
    .limit(limit)
    .execute();
}
