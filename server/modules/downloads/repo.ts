import { type Insertable, sql } from 'kysely';
import type { Platform, VersionType } from '../../../common/domain';
import { type DB, nowIso } from '../../db';
import type { DownloadsTable } from '../../db/schema';
import { newestVersionFirst } from '../catalogue/repo';

/**
 * Downloads of artifacts. Both questions the portal asks of them are index look-ups
 * (downloads_licence_id_created_at_idx, licences_customer_product_unique), however long the
 * history grows.
 */

/**
 * Records a download and counts it in the analytics' aggregates (docs/decisions/039), in the
 * caller's transaction when it passes one. The counts are incremented by the database
 * (`downloads = downloads + 1`), so two downloads at once both count.
 */
export async function recordDownload(
  db: DB,
  download: Omit<Insertable<DownloadsTable>, 'id' | 'createdAt'> & { createdAt?: string },
) {
  const createdAt = download.createdAt ?? nowIso();
  const row = await db
    .insertInto('downloads')
    .values({ ...download, createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  await countDownload(db, { ...download, createdAt });
  return row;
}

async function countDownload(
  db: DB,
  download: { licenceId: number; versionId: number; platform?: DownloadsTable['platform']; createdAt: string },
) {
  const licence = await db
    .selectFrom('licences')
    .select(['customerId', 'productKey'])
    .where('id', '=', download.licenceId)
    .executeTakeFirstOrThrow();
  const day = download.createdAt.slice(0, 10);
  const { productKey, customerId } = licence;
  await db
    .insertInto('downloadDays')
    .values({
      day,
      productKey,
      versionId: download.versionId,
      platform: download.platform ?? 'unknown',
      downloads: 1,
    })
    .onConflict((oc) =>
      oc
        .columns(['productKey', 'day', 'versionId', 'platform'])
        .doUpdateSet({ downloads: (eb) => eb('downloadDays.downloads', '+', 1) }),
    )
    .execute();
  // A download recorded out of order (an import, the demo seed) moves first or last only if earlier or later.
  const earlier = sql<boolean>`excluded.first_at < customer_product_downloads.first_at`;
  const later = sql<boolean>`excluded.last_at >= customer_product_downloads.last_at`;
  await db
    .insertInto('customerProductDownloads')
    .values({
      customerId,
      productKey,
      firstAt: download.createdAt,
      firstVersionId: download.versionId,
      lastAt: download.createdAt,
      lastVersionId: download.versionId,
      downloads: 1,
    })
    .onConflict((oc) =>
      oc.columns(['customerId', 'productKey']).doUpdateSet({
        downloads: (eb) => eb('customerProductDownloads.downloads', '+', 1),
        firstAt: sql`case when ${earlier} then excluded.first_at else customer_product_downloads.first_at end`,
        firstVersionId: sql`case when ${earlier} then excluded.first_version_id else customer_product_downloads.first_version_id end`,
        lastAt: sql`case when ${later} then excluded.last_at else customer_product_downloads.last_at end`,
        lastVersionId: sql`case when ${later} then excluded.last_version_id else customer_product_downloads.last_version_id end`,
      }),
    )
    .execute();
  await countToDate(db, { day, productKey, customerId });
}

/**
 * The running totals the top customers read (migration 014): a new day starts from the total of
 * the customer's previous day, and a download recorded out of order (an import, the demo seed)
 * also counts in the totals of the later days. Within a transaction the upsert of
 * customer_product_downloads above holds the (customer, product) row, so that writes of one
 * customer's product take their turns.
 */
async function countToDate(
  db: DB,
  { day, productKey, customerId }: { day: string; productKey: string; customerId: number },
) {
  const before = sql<number>`coalesce((select downloads_to_date from customer_download_days
    where product_key = ${productKey} and customer_id = ${customerId} and day < ${day}
    order by day desc limit 1), 0) + 1`;
  await db
    .insertInto('customerDownloadDays')
    .values({ day, productKey, customerId, downloads: 1, downloadsToDate: before })
    .onConflict((oc) =>
      oc.columns(['productKey', 'day', 'customerId']).doUpdateSet({
        downloads: (eb) => eb('customerDownloadDays.downloads', '+', 1),
        downloadsToDate: (eb) => eb('customerDownloadDays.downloadsToDate', '+', 1),
      }),
    )
    .execute();
  await db
    .updateTable('customerDownloadDays')
    .set((eb) => ({ downloadsToDate: eb('downloadsToDate', '+', 1) }))
    .where('productKey', '=', productKey)
    .where('customerId', '=', customerId)
    .where('day', '>', day)
    .execute();
  const everyProduct = sql<number>`coalesce((select downloads from customer_downloads_to_date
    where customer_id = ${customerId} and day < ${day} order by day desc limit 1), 0) + 1`;
  await db
    .insertInto('customerDownloadsToDate')
    .values({ customerId, day, downloads: everyProduct })
    .onConflict((oc) =>
      oc
        .columns(['customerId', 'day'])
        .doUpdateSet({ downloads: (eb) => eb('customerDownloadsToDate.downloads', '+', 1) }),
    )
    .execute();
  await db
    .updateTable('customerDownloadsToDate')
    .set((eb) => ({ downloads: eb('downloads', '+', 1) }))
    .where('customerId', '=', customerId)
    .where('day', '>', day)
    .execute();
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

/** What a download needs of a version and its artifact for one platform (artifact fields null when it has none). */
function versionWithArtifact(db: DB, platform: Platform) {
  return db
    .selectFrom('versions')
    .innerJoin('products', 'products.key', 'versions.productKey')
    .leftJoin('artifacts', (join) =>
      join.onRef('artifacts.versionId', '=', 'versions.id').on('artifacts.platform', '=', platform),
    )
    .select([
      'versions.id as versionId',
      'versions.productKey',
      'products.name as productName',
      'versions.semVer',
      'versions.type',
      'versions.published',
      'artifacts.id as artifactId',
      'artifacts.fileName',
      'artifacts.storageKey',
      'artifacts.size',
      'artifacts.sha256',
      'artifacts.createdAt as artifactCreatedAt',
    ]);
}

export type VersionArtifactRow = NonNullable<Awaited<ReturnType<typeof findVersionArtifact>>>;

export function findVersionArtifact(db: DB, versionId: number, platform: Platform) {
  return versionWithArtifact(db, platform).where('versions.id', '=', versionId).executeTakeFirst();
}

export function findVersionArtifactBySemVer(db: DB, productKey: string, semVer: string, platform: Platform) {
  return versionWithArtifact(db, platform)
    .where('versions.productKey', '=', productKey)
    .where('versions.semVer', '=', semVer)
    .executeTakeFirst();
}

/**
 * The newest published version of the product of the given types that has an artifact for the
 * platform (the secret URL's `latest`): by semantic version, through the catalogue's order columns.
 */
export function findLatestDownloadable(db: DB, productKey: string, types: readonly VersionType[], platform: Platform) {
  return newestVersionFirst(
    versionWithArtifact(db, platform)
      .where('versions.productKey', '=', productKey)
      .where('versions.published', '=', 1)
      .where('versions.type', 'in', [...types])
      .where('artifacts.id', 'is not', null),
  )
    .limit(1)
    .executeTakeFirst();
}

/** What a version's checksums and its feed entry need of it. */
function publishedVersion(db: DB) {
  return db
    .selectFrom('versions')
    .innerJoin('products', 'products.key', 'versions.productKey')
    .select([
      'versions.id',
      'versions.productKey',
      'products.name as productName',
      'versions.semVer',
      'versions.title',
      'versions.type',
      'versions.description',
      'versions.published',
      'versions.releaseDate',
      'versions.updatedAt',
    ]);
}

/** A version of the product by its semantic version, published or not (the caller decides). */
export function findVersionBySemVer(db: DB, productKey: string, semVer: string) {
  return publishedVersion(db)
    .where('versions.productKey', '=', productKey)
    .where('versions.semVer', '=', semVer)
    .executeTakeFirst();
}

/**
 * The newest published version of the product of the given types that has at least one artifact
 * (the checksums' `latest`), in the catalogue's semantic-version order.
 */
export function findLatestWithArtifacts(db: DB, productKey: string, types: readonly VersionType[]) {
  return newestVersionFirst(
    publishedVersion(db)
      .where('versions.productKey', '=', productKey)
      .where('versions.published', '=', 1)
      .where('versions.type', 'in', [...types])
      .where((eb) =>
        eb.exists(
          eb.selectFrom('artifacts').select('artifacts.id').whereRef('artifacts.versionId', '=', 'versions.id'),
        ),
      ),
  )
    .limit(1)
    .executeTakeFirst();
}

/**
 * The newest published versions of the product of the given types, at most `limit` (a licence's
 * feed): by release date, then by semantic version within a day, so a maintenance release published
 * after a major one comes first, as a feed reader would show it.
 */
export function listPublishedVersions(db: DB, productKey: string, types: readonly VersionType[], limit: number) {
  return newestVersionFirst(
    publishedVersion(db)
      .where('versions.productKey', '=', productKey)
      .where('versions.published', '=', 1)
      .where('versions.type', 'in', [...types])
      .orderBy('versions.releaseDate', 'desc'),
  )
    .limit(limit)
    .execute();
}
