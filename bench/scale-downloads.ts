import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../server/db';
import { backfillDownloadAnalytics } from '../server/db/migrations/012_download_analytics';
import { backfillDownloadsToDate } from '../server/db/migrations/014_downloads_to_date';

/** Downloads per customer: 10M rows at 100k customers. */
const DOWNLOADS_PER_CUSTOMER = 100;
/** Versions per product, 1.0.0 to 1.4.0, all published. */
const VERSIONS_PER_PRODUCT = 5;
/**
 * Customers that download: a vendor's active installations, the same at every size however many
 * customers the database holds (docs/decisions/043), so that the sizes differ by their rows (10M
 * downloads at 100k customers, 27 a day per customer instead of one in four days), which is what
 * the 2x budget is about. The small size holds 1000 customers, so at most 1000 can download at both.
 * `--downloading-customers` sets another number (the large size then has more active customers than
 * the small one can, which measures what follows them: docs/decisions/043).
 */
export const DOWNLOADING_CUSTOMERS = 1000;
const DAYS = 365;

/**
 * The downloads table at `customers × 100` rows over the past year, spread over the versions and
 * platforms of the licences of the first `downloadingCustomers` customers, then the analytics'
 * aggregates built from it by the migrations' own backfills (docs/decisions/039), as an upgraded
 * database would have them.
 */
export async function seedDownloads(
  db: DB,
  pg: boolean,
  customers: number,
  licencesPerCustomer: number,
  series: (n: number) => RawBuilder<unknown>,
  downloadingCustomers = DOWNLOADING_CUSTOMERS,
) {
  const now = new Date().toISOString();
  await sql`
    insert into versions (product_key, title, type, sem_ver, description, release_date, published, created_at, updated_at)
    select p.key, p.key || ' 1.' || (s.i - 1) || '.0', 'stable', '1.' || (s.i - 1) || '.0', '', '2024-01-01', 1, ${now}, ${now}
    from products p cross join ${series(VERSIONS_PER_PRODUCT)}`.execute(db);
  const licences = Math.min(customers, downloadingCustomers) * licencesPerCustomer;
  // generate_series counts in int4: the product would overflow it at 10M rows
  const i = sql.raw(pg ? 's.i::bigint' : 's.i');
  const createdAt = sql.raw(
    pg
      ? `to_char((now() at time zone 'utc') - (s.i % ${DAYS}) * interval '1 day' - (s.i % 86399) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (s.i % ${DAYS}) || ' days', '-' || (s.i % 86399) || ' seconds')`,
  );
  // The licences numbered in customer order: licence ids follow the order the seed's cross join
  // produced, which differs between the databases (on PostgreSQL the first 20k ids span 10k
  // customers), so the downloading customers are the first 2000 on both.
  await sql`create temp table bench_licences (n integer primary key, id integer not null, product_key text not null)`.execute(
    db,
  );
  await sql`
    insert into bench_licences (n, id, product_key)
    select row_number() over (order by customer_id, id) - 1, id, product_key from licences`.execute(db);
  await sql`
    insert into downloads (licence_id, version_id, artifact_id, user_id, ip, platform, created_at)
    select l.id, v.id, null, null, null,
           case s.i % 6 when 0 then 'windows' when 1 then 'linux' when 2 then 'osx' when 3 then 'docker' when 4 then 'npm' else 'linux' end,
           ${createdAt}
    from ${series(customers * DOWNLOADS_PER_CUSTOMER)}
    join bench_licences l on l.n = (${i} * 7919) % ${sql.lit(licences)}
    join versions v on v.product_key = l.product_key and v.sem_ver = '1.' || ((s.i / 7) % ${sql.lit(VERSIONS_PER_PRODUCT)}) || '.0'`.execute(
    db,
  );
  await sql`drop table bench_licences`.execute(db);
  await backfillDownloadAnalytics(db);
  await backfillDownloadsToDate(db);
}
