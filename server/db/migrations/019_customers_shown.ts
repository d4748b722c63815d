import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * PostgreSQL: the staff's customer list counts the customers it shows (those whose latest licence
 * has not ended beyond its grace, migration 015) up to its cap. Without an index that count reads
 * the table from its first page until 1,001 rows pass, and after a statement that rewrote every row
 * (migration 015's own fill) the first half of the table is free space it reads for nothing: 2.5 ms
 * at 100k customers against 0.3 at 1k. This index answers the count from a few leaf pages (its
 * `include` lets PostgreSQL read the rule's column without visiting the rows): 0.3 ms at both sizes
 * (docs/decisions/049-dense-searches.md). SQLite's count is within budget without it.
 */
export function customersShownMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`CREATE INDEX customers_shown ON customers ((coalesce(last_licence_end, '9999-12-31'))) INCLUDE (last_licence_end)`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`DROP INDEX IF EXISTS customers_shown`.execute(db);
    },
  };
}
