import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../dialect';

/**
 * Indexes for the list searches (docs/decisions/013-search-at-scale.md): substring search on user
 * names and e-mails, customer names and customer keys, and the prefix match that serves filters
 * too short for trigrams. The customer list's "hide customers whose licences all ended" reads
 * licences by (customer, end date).
 */
export function searchMigration(dialect: DialectName): Migration {
  return dialect === 'postgres' ? postgres : sqlite;
}

const postgres: Migration = {
  async up(db: Kysely<any>) {
    // pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it, no superuser.
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    for (const [table, column] of SEARCHED) {
      // fastupdate off: rows go straight into the index. With it on, new rows wait in a pending list
      // that every search reads through until a vacuum merges it (40 ms a search after 20k inserts);
      // these tables are written rarely, so the write pays instead.
      await sql
        .raw(
          `CREATE INDEX ${table}_${column}_trgm ON ${table} USING gin (lower(${column}) gin_trgm_ops) WITH (fastupdate = off)`,
        )
        .execute(db);
      // COLLATE "C": byte order, so a prefix is one range whatever the database's locale.
      await sql.raw(`CREATE INDEX ${table}_${column}_prefix ON ${table} ((lower(${column}) COLLATE "C"))`).execute(db);
    }
    await sql`CREATE INDEX licences_customer_end_idx ON licences (customer_id, end_date)`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`DROP INDEX IF EXISTS licences_customer_end_idx`.execute(db);
    for (const [table, column] of SEARCHED) {
      await sql.raw(`DROP INDEX IF EXISTS ${table}_${column}_prefix`).execute(db);
      await sql.raw(`DROP INDEX IF EXISTS ${table}_${column}_trgm`).execute(db);
    }
  },
};

/**
 * SQLite: an FTS5 table with the trigram tokenizer per searched table, holding no copy of the text
 * (external content) and kept in step by triggers, so no code path can forget to update it.
 */
const sqlite: Migration = {
  async up(db: Kysely<any>) {
    for (const [table, columns] of FTS_TABLES) {
      const fts = `${table}_search`;
      const list = columns.join(', ');
      const values = (row: 'new' | 'old') => columns.map((c) => `${row}.${c}`).join(', ');
      await sql
        .raw(
          `CREATE VIRTUAL TABLE ${fts} USING fts5(${list}, content='${table}', content_rowid='id', tokenize='trigram')`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER ${fts}_insert AFTER INSERT ON ${table} BEGIN
             INSERT INTO ${fts} (rowid, ${list}) VALUES (new.id, ${values('new')});
           END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER ${fts}_delete AFTER DELETE ON ${table} BEGIN
             INSERT INTO ${fts} (${fts}, rowid, ${list}) VALUES ('delete', old.id, ${values('old')});
           END`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER ${fts}_update AFTER UPDATE OF ${list} ON ${table} BEGIN
             INSERT INTO ${fts} (${fts}, rowid, ${list}) VALUES ('delete', old.id, ${values('old')});
             INSERT INTO ${fts} (rowid, ${list}) VALUES (new.id, ${values('new')});
           END`,
        )
        .execute(db);
      // Rows written before this migration.
      await sql.raw(`INSERT INTO ${fts} (${fts}) VALUES ('rebuild')`).execute(db);
    }
    for (const [table, column] of SQLITE_PREFIXED) {
      await sql.raw(`CREATE INDEX ${table}_${column}_prefix ON ${table} (lower(${column}))`).execute(db);
    }
    await sql`CREATE INDEX licences_customer_end_idx ON licences (customer_id, end_date)`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`DROP INDEX IF EXISTS licences_customer_end_idx`.execute(db);
    for (const [table, column] of SQLITE_PREFIXED) {
      await sql.raw(`DROP INDEX IF EXISTS ${table}_${column}_prefix`).execute(db);
    }
    for (const [table] of FTS_TABLES) {
      for (const event of ['insert', 'delete', 'update']) {
        await sql.raw(`DROP TRIGGER IF EXISTS ${table}_search_${event}`).execute(db);
      }
      await sql.raw(`DROP TABLE IF EXISTS ${table}_search`).execute(db);
    }
  },
};

/** Columns searched by substring and by prefix: [table, column]. */
const SEARCHED = [
  ['users', 'full_name'],
  ['users', 'email'],
  ['customers', 'name'],
  ['customers', 'customer_key'],
] as const;

/**
 * SQLite compares bytes, so the unique index on lower(email) of migration 001 serves e-mail prefixes
 * already; PostgreSQL's follows the database's locale and needs the "C" one above.
 */
const SQLITE_PREFIXED = SEARCHED.filter(([table, column]) => !(table === 'users' && column === 'email'));

/** SQLite full-text tables: one per table, over its searched columns. */
const FTS_TABLES = [
  ['users', ['full_name', 'email']],
  ['customers', ['name', 'customer_key']],
] as const;
