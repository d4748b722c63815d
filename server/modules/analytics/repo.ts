import { type ExpressionBuilder, sql } from 'kysely';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';

/**
 * The analytics' reads, all from the aggregates of migrations 012 and 014 (docs/decisions/039): a
 * range of days reads rows per (day, product, version, platform), or running totals per customer,
 * never the downloads themselves. Each query filters on the leading columns of an index.
 */

export interface Range {
  from: string;
  to: string;
  productKey: string | null;
}

/** Downloads per day of a breakdown's key (product, version or platform). */
export async function downloadsByDay(db: DB, range: Range, by: 'productKey' | 'versionId' | 'platform') {
  const column = `downloadDays.${by}` as const;
  return db
    .selectFrom('downloadDays')
    .select((eb) => ['day', eb.ref(column).as('key'), eb.fn.sum<number>('downloads').as('downloads')])
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .$if(range.productKey !== null, (q) => q.where('productKey', '=', range.productKey!))
    .groupBy(['day', column])
    .orderBy('day')
    .execute();
}

/**
 * The customers who downloaded most in the range, with their names. Each customer who downloaded
 * before the range ends and until after it starts counts as their running total at the range's
 * last day less the one before its first (migration 014): two index look-ups per customer, not one
 * row per customer and day of the range.
 */
export async function topCustomers(db: DB, range: Range, limit: number) {
  const toDate = (day: string, cmp: '<=' | '<') =>
    range.productKey === null
      ? sql<number>`coalesce((select t.downloads from customer_downloads_to_date t
          where t.customer_id = c.customer_id and t.day ${sql.raw(cmp)} ${day}
          order by t.day desc limit 1), 0)`
      : sql<number>`coalesce((select t.downloads_to_date from customer_download_days t
          where t.product_key = ${range.productKey} and t.customer_id = c.customer_id and t.day ${sql.raw(cmp)} ${day}
          order by t.day desc limit 1), 0)`;
  // the customers whose downloads of the product (or of any) reach into the range, through an index
  // range on last_at (or product_key); materialized, so that grouping cannot turn it into a whole scan
  // in key order, and each customer's two look-ups run once, not again for the filter and the order
  return db
    .with(
      (cte) => cte('active').materialized(),
      (q) =>
        q
          .selectFrom('customerProductDownloads')
          .select('customerId')
          .where('lastAt', '>=', `${range.from}T00:00:00.000Z`)
          .where('firstAt', '<', `${range.to}T99`)
          .$if(range.productKey !== null, (w) => w.where('productKey', '=', range.productKey!)),
    )
    .with(
      (cte) => cte('counted').materialized(),
      (q) =>
        q
          .selectFrom((w) => w.selectFrom('active').select('customerId').groupBy('customerId').as('c'))
          .select([
            'c.customerId',
            sql<number>`${toDate(range.to, '<=')} - ${toDate(range.from, '<')}`.as('downloads'),
          ]),
    )
    .selectFrom('counted')
    .innerJoin('customers', 'customers.id', 'counted.customerId')
    .select(['counted.customerId', 'customers.name as customerName', 'counted.downloads'])
    .where('counted.downloads', '>', 0)
    .orderBy('counted.downloads', 'desc')
    .orderBy('counted.customerId')
    .limit(limit)
    .execute();
}

const firstInRange = (range: Range) => (eb: ExpressionBuilder<Database, 'customerProductDownloads'>) =>
  eb.and([
    eb('customerProductDownloads.firstAt', '>=', `${range.from}T00:00:00.000Z`),
    // every instant of the last day, whatever its fraction of a second
    eb('customerProductDownloads.firstAt', '<', `${range.to}T99`),
    ...(range.productKey !== null ? [eb('customerProductDownloads.productKey', '=', range.productKey)] : []),
  ]);

/** Customers' first downloads of a product, counted per day. */
export async function firstDownloadsByDay(db: DB, range: Range) {
  const day = sql<string>`substr(${sql.ref('firstAt')}, 1, 10)`;
  return db
    .selectFrom('customerProductDownloads')
    .select((eb) => [day.as('day'), eb.fn.countAll<number>().as('downloads')])
    .where(firstInRange(range))
    .groupBy(day)
    .orderBy(day)
    .execute();
}

/** The most recent first downloads of the range. */
export async function recentFirstDownloads(db: DB, range: Range, limit: number) {
  return db
    .selectFrom('customerProductDownloads')
    .innerJoin('customers', 'customers.id', 'customerProductDownloads.customerId')
    .innerJoin('products', 'products.key', 'customerProductDownloads.productKey')
    .leftJoin('versions', 'versions.id', 'customerProductDownloads.firstVersionId')
    .select([
      'customerProductDownloads.customerId',
      'customers.name as customerName',
      'customerProductDownloads.productKey',
      'products.name as productName',
      'versions.semVer',
      'customerProductDownloads.firstAt as at',
    ])
    .where(firstInRange(range))
    .orderBy('customerProductDownloads.firstAt', 'desc')
    .orderBy('customerProductDownloads.customerId')
    .limit(limit)
    .execute();
}

/**
 * Per product: the customers who downloaded it, and those whose latest download was one of
 * `latestIds`. Two counts, each from an index alone ((product_key, first_at) and, from migration
 * 014, (last_version_id, product_key)), rather than every row of the table.
 */
export async function customersOnVersions(db: DB, productKey: string | null, latestIds: number[]) {
  const [customers, onLatest] = await Promise.all([
    db
      .selectFrom('customerProductDownloads')
      .select((eb) => ['productKey', eb.fn.countAll<number>().as('customers')])
      .$if(productKey !== null, (q) => q.where('productKey', '=', productKey!))
      .groupBy('productKey')
      .execute(),
    latestIds.length === 0
      ? []
      : db
          .selectFrom('customerProductDownloads')
          .select((eb) => ['productKey', eb.fn.countAll<number>().as('onLatest')])
          .where('lastVersionId', 'in', latestIds)
          .$if(productKey !== null, (q) => q.where('productKey', '=', productKey!))
          .groupBy('productKey')
          .execute(),
  ]);
  const on = new Map(onLatest.map((r) => [r.productKey, Number(r.onLatest)]));
  return customers.map((r) => ({ ...r, onLatest: on.get(r.productKey) ?? 0 }));
}

export async function productNames(db: DB) {
  return db.selectFrom('products').select(['key', 'name']).orderBy('name').orderBy('key').execute();
}

/** The versions (a handful per product), to label versions and find each product's latest. */
export async function versionsOf(db: DB, productKey: string | null) {
  return db
    .selectFrom('versions')
    .select(['id', 'productKey', 'semVer', 'published'])
    .$if(productKey !== null, (q) => q.where('productKey', '=', productKey!))
    .execute();
}
