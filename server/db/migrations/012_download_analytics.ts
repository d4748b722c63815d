import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';
import { createTable, index } from './helpers';

/**
 * The aggregates the download analytics read (docs/decisions/039), so that a range of days costs
 * rows per day, not rows per download, however long the downloads table grows. `recordDownload`
 * keeps them in the same write as the download; this migration fills them from the downloads
 * recorded before it. Days are UTC days: `created_at` is an ISO instant in UTC, its first ten
 * characters are the day.
 */
export function downloadAnalyticsMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      // A table read in key order by range of days: SQLite stores it in its key, with no second copy.
      const clustered = (b: any) => (dialect === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b);

      await createTable(db, 'downloadDays', (t) =>
        clustered(
          t
            .addColumn('day', 'text', (c) => c.notNull())
            .addColumn('product_key', 'text', (c) =>
              c.notNull().references('products.key').onDelete('cascade').onUpdate('cascade'),
            )
            .addColumn('version_id', 'integer', (c) => c.notNull().references('versions.id').onDelete('cascade'))
            .addColumn('platform', 'text', (c) => c.notNull())
            .addColumn('downloads', 'integer', (c) => c.notNull())
            .addPrimaryKeyConstraint('download_days_pkey', ['product_key', 'day', 'version_id', 'platform']),
        ),
      );
      // every product's days (no product filter), and the cascade of a version
      await index(db, 'download_days', ['day', 'product_key']);
      await index(db, 'download_days', ['version_id']);

      await createTable(db, 'customerDownloadDays', (t) =>
        clustered(
          t
            .addColumn('day', 'text', (c) => c.notNull())
            .addColumn('product_key', 'text', (c) =>
              c.notNull().references('products.key').onDelete('cascade').onUpdate('cascade'),
            )
            .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
            .addColumn('downloads', 'integer', (c) => c.notNull())
            .addPrimaryKeyConstraint('customer_download_days_pkey', ['product_key', 'day', 'customer_id']),
        ),
      );
      await index(db, 'customer_download_days', ['day', 'customer_id', 'downloads']);
      await index(db, 'customer_download_days', ['customer_id']);

      await createTable(db, 'customerProductDownloads', (t) =>
        t
          .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
          .addColumn('product_key', 'text', (c) =>
            c.notNull().references('products.key').onDelete('cascade').onUpdate('cascade'),
          )
          .addColumn('first_at', 'text', (c) => c.notNull())
          .addColumn('first_version_id', 'integer', (c) => c.references('versions.id').onDelete('set null'))
          .addColumn('last_at', 'text', (c) => c.notNull())
          .addColumn('last_version_id', 'integer', (c) => c.references('versions.id').onDelete('set null'))
          .addColumn('downloads', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('customer_product_downloads_pkey', ['customer_id', 'product_key']),
      );
      // first downloads of a range, of every product or of one; the share on a product's latest version
      await index(db, 'customer_product_downloads', ['first_at']);
      await index(db, 'customer_product_downloads', ['product_key', 'first_at']);
      await index(db, 'customer_product_downloads', ['last_version_id']);
      await index(db, 'customer_product_downloads', ['first_version_id']);

      await backfillDownloadAnalytics(db);
    },
    async down(db: Kysely<any>) {
      for (const table of ['customer_product_downloads', 'customer_download_days', 'download_days']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  };
}

/** The aggregates of the downloads recorded so far: a few grouped statements, run once. */
export async function backfillDownloadAnalytics(db: Kysely<any>) {
  await sql`
    insert into download_days (day, product_key, version_id, platform, downloads)
    select substr(d.created_at, 1, 10), l.product_key, d.version_id, coalesce(d.platform, 'unknown'), count(*)
    from downloads d join licences l on l.id = d.licence_id
    group by substr(d.created_at, 1, 10), l.product_key, d.version_id, coalesce(d.platform, 'unknown')`.execute(db);
  await sql`
    insert into customer_download_days (day, product_key, customer_id, downloads)
    select substr(d.created_at, 1, 10), l.product_key, l.customer_id, count(*)
    from downloads d join licences l on l.id = d.licence_id
    group by substr(d.created_at, 1, 10), l.product_key, l.customer_id`.execute(db);
  await sql`
    insert into customer_product_downloads (customer_id, product_key, first_at, last_at, downloads)
    select l.customer_id, l.product_key, min(d.created_at), max(d.created_at), count(*)
    from downloads d join licences l on l.id = d.licence_id
    group by l.customer_id, l.product_key`.execute(db);
  // Each customer's first and latest download of each product, found by one pass over the downloads
  // (two window orders) rather than a search per customer and product: the search joins the
  // licences, so its index order is lost and each pair would read the table again.
  await sql`
    update customer_product_downloads as t
    set first_version_id = w.first_version_id, last_version_id = w.last_version_id
    from (
      select customer_id, product_key,
             max(case when first_rank = 1 then version_id end) as first_version_id,
             max(case when last_rank = 1 then version_id end) as last_version_id
      from (
        select l.customer_id, l.product_key, d.version_id,
               row_number() over (partition by l.customer_id, l.product_key order by d.created_at, d.id) as first_rank,
               row_number() over (partition by l.customer_id, l.product_key order by d.created_at desc, d.id desc) as last_rank
        from downloads d join licences l on l.id = d.licence_id
      ) as r
      where first_rank = 1 or last_rank = 1
      group by customer_id, product_key
    ) as w
    where t.customer_id = w.customer_id and t.product_key = w.product_key`.execute(db);
}
