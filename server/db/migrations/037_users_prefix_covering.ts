import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * PostgreSQL: the Users page's one- or two-letter filter counts its users up to the cap, the names
 * that start with it first and the e-mails only while under the cap (server/modules/users/repo.ts,
 * `countNameFirst`). Each of migration 002's prefix indexes holds the lowered column alone, and
 * PostgreSQL reads a row for each entry it counts (it makes no index-only scan of an expression
 * index unless the column is in the index too): 1,001 rows for "s" at 100k users. With the columns
 * included the count reads the index's entries alone, stopping at 1,001 (docs/decisions/095). The
 * e-mail's index includes the name too, which its count tests to leave out the users counted by name.
 * SQLite's indexes are unchanged.
 */
export function usersPrefixCoveringMigration(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`DROP INDEX IF EXISTS users_full_name_prefix`.execute(db);
      await sql`CREATE INDEX users_full_name_prefix ON users ((lower(full_name) COLLATE "C")) INCLUDE (full_name)`.execute(
        db,
      );
      await sql`DROP INDEX IF EXISTS users_email_prefix`.execute(db);
      await sql`CREATE INDEX users_email_prefix ON users ((lower(email) COLLATE "C")) INCLUDE (email, full_name)`.execute(
        db,
      );
    },
    async down(db: Kysely<any>) {
      if (dialect !== 'postgres') return;
      await sql`DROP INDEX IF EXISTS users_full_name_prefix`.execute(db);
      await sql`CREATE INDEX users_full_name_prefix ON users ((lower(full_name) COLLATE "C"))`.execute(db);
      await sql`DROP INDEX IF EXISTS users_email_prefix`.execute(db);
      await sql`CREATE INDEX users_email_prefix ON users ((lower(email) COLLATE "C"))`.execute(db);
    },
  };
}
