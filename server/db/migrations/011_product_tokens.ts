import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../dialect';
import { columnsFor, createTable, index } from './helpers';

/**
 * The API tokens of a product, with which a release pipeline uploads artifacts (docs/decisions/036).
 * Only the token's sha256 is kept (unique: a token is found by it); revoking deletes the row.
 */
export function productTokensMigration(dialect: DialectName): Migration {
  const { id } = columnsFor(dialect);
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'productTokens', (t) =>
        t
          .addColumn('id', 'integer', id)
          .addColumn('product_key', 'text', (c) => c.notNull().references('products.key').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('token_hash', 'text', (c) => c.notNull().unique())
          .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('last_used_at', 'text'),
      );
      await index(db, 'product_tokens', ['product_key']);
      // deleting a user sets its tokens' created_by to null without a scan
      await index(db, 'product_tokens', ['created_by']);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('product_tokens').execute();
    },
  };
}
