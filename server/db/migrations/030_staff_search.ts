import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * The staff's search box (docs/decisions/079-staff-search.md) finds versions by the start of their
 * semantic version, across products or within the products its other words name: an index on
 * sem_ver gives both a byte range and its order, so the first few matches cost a few index entries
 * however many versions there are. PostgreSQL's index is in the "C" collation, so that a prefix is
 * one range whatever the database's locale (as migration 002's); the unique (product_key, sem_ver)
 * of migration 001 follows that locale, hence a second one per product. SQLite compares bytes: its
 * unique pair already serves the search within a product.
 * Customers, users and members are found through migration 002's indexes; licences by their id.
 */
export function staffSearchMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect === 'postgres') {
        await sql`CREATE INDEX versions_sem_ver_prefix ON versions ((sem_ver COLLATE "C"), id)`.execute(db);
        await sql`CREATE INDEX versions_product_sem_ver_prefix ON versions (product_key, (sem_ver COLLATE "C"))`.execute(
          db,
        );
      } else {
        await sql`CREATE INDEX versions_sem_ver_prefix ON versions (sem_ver)`.execute(db);
      }
    },
    async down(db: Kysely<any>) {
      await sql`DROP INDEX IF EXISTS versions_product_sem_ver_prefix`.execute(db);
      await sql`DROP INDEX IF EXISTS versions_sem_ver_prefix`.execute(db);
    },
  };
}
