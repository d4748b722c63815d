import { type Kysely, type Migration, sql } from 'kysely';
import { createTable } from './helpers';

/**
 * The keys that sign licence files (docs/decisions/032). At most one active key: a unique index on a
 * constant over the rows not retired, so two nodes starting at once cannot both create one (the
 * second insert fails and that node reads the winner's key instead).
 */
export function licenceSigningKeysMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await createTable(db, 'licenceSigningKeys', (t) =>
        t
          .addColumn('key_id', 'text', (c) => c.primaryKey())
          .addColumn('algorithm', 'text', (c) => c.notNull())
          .addColumn('public_key', 'text', (c) => c.notNull())
          .addColumn('private_key_sealed', 'text')
          .addColumn('created_at', 'text', (c) => c.notNull())
          .addColumn('retired_at', 'text'),
      );
      await sql`create unique index licence_signing_keys_one_active_idx on licence_signing_keys ((retired_at is null)) where retired_at is null`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('licence_signing_keys').execute();
    },
  };
}
