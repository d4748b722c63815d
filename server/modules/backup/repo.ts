import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../../db';

/**
 * SQL of backups: the tables are read from the database's own catalogue, never from a list kept
 * here, so a table a later migration adds is in every backup without a change to this file.
 */

// Any Kysely: the backup also reads a database file of its own (the SQLite copy), not only the portal's.
type AnyDb = Kysely<any>;

/** Kysely's own bookkeeping of the migrations applied. */
const MIGRATION_TABLE = 'kysely_migration';

/**
 * Every table holding rows: SQLite's (its internal `sqlite_` tables aside) or PostgreSQL's in every
 * schema but the system ones. A table outside the connection's schema is named `schema.table`.
 */
export async function listTables(db: AnyDb, dialect: DialectName): Promise<string[]> {
  if (dialect === 'sqlite') {
    // virtual tables (full-text search) are left out: their rows live in their shadow tables, listed too
    const { rows } = await sql<{ name: string }>`
      select name from sqlite_master
      where type = 'table' and name not like 'sqlite\\_%' escape '\\' and sql not like 'CREATE VIRTUAL TABLE%'
      order by name`.execute(db);
    return rows.map((row) => row.name);
  }
  const { rows } = await sql<{ schema: string; name: string; current: boolean }>`
    select table_schema as schema, table_name as name, table_schema = current_schema() as current
    from information_schema.tables
    where table_type = 'BASE TABLE'
      and table_schema not in ('pg_catalog', 'information_schema') and table_schema not like 'pg\\_%'
    order by table_schema, table_name`.execute(db);
  return rows.map((row) => (row.current ? row.name : `${row.schema}.${row.name}`));
}

function tableRef(table: string) {
  return sql.table(table);
}

async function countRows(db: AnyDb, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${tableRef(table)}`.execute(db);
  return Number(rows[0].n);
}

/** The row count of every table, in the order listTables gives. */
export async function countAllRows(db: AnyDb, dialect: DialectName): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await listTables(db, dialect)) counts[table] = await countRows(db, table);
  return counts;
}

/** Every row of a table, for comparing two databases (the restore tests). */
export async function allRows(db: AnyDb, table: string): Promise<Record<string, unknown>[]> {
  const { rows } = await sql<Record<string, unknown>>`select * from ${tableRef(table)}`.execute(db);
  return rows;
}

/** The names of the migrations the database has run, in their order; empty before the first. */
export async function appliedMigrations(db: AnyDb, dialect: DialectName): Promise<string[]> {
  if (!(await listTables(db, dialect)).includes(MIGRATION_TABLE)) return [];
  const { rows } = await sql<{ name: string }>`select name from ${tableRef(MIGRATION_TABLE)} order by name`.execute(db);
  return rows.map((row) => row.name);
}

/**
 * PostgreSQL: runs `work` inside a repeatable-read transaction whose snapshot is exported, so
 * pg_dump (`--snapshot`) dumps exactly what the row counts read.
 */
export async function withExportedSnapshot<T>(
  db: AnyDb,
  work: (snapshot: string, trx: AnyDb) => Promise<T>,
): Promise<T> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const { rows } = await sql<{ snapshot: string }>`select pg_export_snapshot() as snapshot`.execute(trx);
      return work(rows[0].snapshot, trx);
    });
}

/** The stored objects the artifacts' rows name: what an S3 bucket must still hold for the backup to be whole. */
export async function expectedObjects(db: AnyDb): Promise<{ key: string; size: number; sha256: string }[]> {
  const rows = await db
    .selectFrom('artifacts')
    .select(['storageKey as key', 'size', 'sha256'])
    .orderBy('storageKey')
    .execute();
  return rows.map((row) => ({ key: String(row.key), size: Number(row.size), sha256: String(row.sha256) }));
}

/** PostgreSQL: removes every table and schema a failed restore created in a database that was empty before it. */
export async function dropRestoredObjects(db: AnyDb): Promise<void> {
  const { rows } = await sql<{ schema: string }>`
    select nspname as schema from pg_namespace
    where nspname not in ('pg_catalog', 'information_schema', 'public') and nspname not like 'pg\\_%'`.execute(db);
  for (const { schema } of rows) await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
  const tables = await listTables(db, 'postgres');
  for (const table of tables) await sql`drop table if exists ${tableRef(table)} cascade`.execute(db);
}
