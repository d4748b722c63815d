import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';
import { createTable, index } from './helpers';

/**
 * Running totals for the top customers of a range (docs/decisions/039): a customer's downloads up
 * to and including each day they downloaded, per product (a column of customer_download_days) and
 * of every product (customer_downloads_to_date). A range's count is the total at its last day
 * minus the total before its first: two index look-ups per customer, however long the range and
 * however many downloads it holds, and exact for any range.
 */
export function downloadsToDateMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('customer_download_days')
        .addColumn('downloads_to_date', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // a customer's latest day at or before a given one, with its running total, from the index
      // alone; it replaces the index on customer_id alone, and still serves the customer's cascade
      await db.schema.dropIndex('customer_download_days_customer_id_idx').execute();
      await index(db, 'customer_download_days', ['customer_id', 'product_key', 'day', 'downloads_to_date']);
      // the days of a range are no longer summed per customer: the index only slowed each download
      await db.schema.dropIndex('customer_download_days_day_customer_id_downloads_idx').execute();

      // the customers whose downloads reach into a range (of every product: one product's use
      // (product_key, first_at)), with what the top customers group, from the index alone
      await index(db, 'customer_product_downloads', ['last_at', 'customer_id', 'first_at']);

      // the customers on a product's latest version, counted from the index alone; it replaces the
      // index on last_version_id alone, and still serves the version's "set null"
      await db.schema.dropIndex('customer_product_downloads_last_version_id_idx').execute();
      await index(db, 'customer_product_downloads', ['last_version_id', 'product_key']);

      await createTable(db, 'customerDownloadsToDate', (t) => {
        const table = t
          .addColumn('customer_id', 'integer', (c) => c.notNull().references('customers.id').onDelete('cascade'))
          .addColumn('day', 'text', (c) => c.notNull())
          .addColumn('downloads', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('customer_downloads_to_date_pkey', ['customer_id', 'day']);
        return dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table;
      });

      await backfillDownloadsToDate(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('customer_downloads_to_date').ifExists().execute();
      await db.schema.dropIndex('customer_product_downloads_last_at_customer_id_first_at_idx').execute();
      await db.schema.dropIndex('customer_product_downloads_last_version_id_product_key_idx').execute();
      await index(db, 'customer_product_downloads', ['last_version_id']);
      await db.schema.dropIndex('customer_download_days_customer_id_product_key_day_downloads_to_date_idx').execute();
      await index(db, 'customer_download_days', ['customer_id']);
      await index(db, 'customer_download_days', ['day', 'customer_id', 'downloads']);
      await db.schema.alterTable('customer_download_days').dropColumn('downloads_to_date').execute();
    },
  };
}

/** The running totals from the daily counts of migration 012: two grouped statements, run once. */
export async function backfillDownloadsToDate(db: Kysely<any>) {
  await sql`
    update customer_download_days as t
    set downloads_to_date = w.total
    from (
      select product_key, customer_id, day,
             sum(downloads) over (partition by product_key, customer_id order by day) as total
      from customer_download_days
    ) as w
    where t.product_key = w.product_key and t.customer_id = w.customer_id and t.day = w.day`.execute(db);
  await sql`
    insert into customer_downloads_to_date (customer_id, day, downloads)
    select customer_id, day, sum(sum(downloads)) over (partition by customer_id order by day)
    from customer_download_days
    group by customer_id, day`.execute(db);
}
