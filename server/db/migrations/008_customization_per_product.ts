import type { Kysely, Migration } from 'kysely';
import { index } from './helpers';

/**
 * A customer has at most one customization per product (docs/decisions/033): the database refuses a
 * second one, also when two requests race past the service's check. The unique index replaces the
 * plain (customer_id, product_key) index of migration 001, which it serves as well.
 */
export function customizationPerProductMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('customizations_customer_id_product_key_idx').ifExists().execute();
      await db.schema
        .createIndex('customizations_customer_product_unique')
        .on('customizations')
        .columns(['customer_id', 'product_key'])
        .unique()
        .execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('customizations_customer_product_unique').ifExists().execute();
      await index(db, 'customizations', ['customer_id', 'product_key']);
    },
  };
}
