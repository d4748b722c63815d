import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * PostgreSQL: the customers' name index also holds the id, so that it gives the customer list's
 * whole order (lower(name), then id) and a search that matches many customers walks it and stops
 * after a page of matches (docs/decisions/049-dense-searches.md). It replaces the lower(name) index
 * of migration 002, whose prefix matches it serves as well. SQLite's index on lower(name) ends in
 * the rowid, the id, already: nothing to change.
 */
export function customerNameOrderMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE INDEX customers_name_order ON customers ((lower(name) COLLATE "C"), id)`.execute(db);
      await sql`DROP INDEX IF EXISTS customers_name_prefix`.execute(db);
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE INDEX customers_name_prefix ON customers ((lower(name) COLLATE "C"))`.execute(db);
      await sql`DROP INDEX IF EXISTS customers_name_order`.execute(db);
    },
  };
}
