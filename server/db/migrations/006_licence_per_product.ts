import type { Kysely, Migration } from 'kysely';
import { index } from './helpers';

/**
 * A customer holds one licence per product (docs/decisions/031): renewing a licence moves its end
 * date, it never adds a second licence. The unique (customer_id, product_key) index says so to the
 * database, so that two creations at once cannot both succeed, and it answers "the customer's
 * licence of this product" (the licence file, the downloads) as the plain index of migration 001
 * did, which it replaces.
 *
 * The licences ending soon of every customer (`GET /api/licenses/ending`) are read in end-date order
 * from an (end_date, id) index, so the first page stops after a page of rows however many licences
 * there are.
 */
export function licencePerProductMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex('licences_customer_product_unique')
        .on('licences')
        .columns(['customer_id', 'product_key'])
        .unique()
        .execute();
      await db.schema.dropIndex('licences_customer_id_product_key_idx').ifExists().execute();
      await index(db, 'licences', ['end_date', 'id']);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('licences_end_date_id_idx').ifExists().execute();
      await index(db, 'licences', ['customer_id', 'product_key']);
      await db.schema.dropIndex('licences_customer_product_unique').ifExists().execute();
    },
  };
}
