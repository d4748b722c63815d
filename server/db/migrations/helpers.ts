import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import { snake, type TableName, withChecks } from '../constraints';
import type { DialectName } from '../dialect';

/** Column shapes shared by the tables of a migration, the same on both dialects. */
export function columnsFor(dialect: DialectName) {
  return {
    id: (c: ColumnDefinitionBuilder) =>
      dialect === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement(),
    bool: (def: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(def),
  };
}
export type Columns = ReturnType<typeof columnsFor>;

/**
 * Creates a table of schema.ts with the CHECK constraints of its enumerated and 0/1 columns
 * (server/db/constraints.ts), so that no table can be created without them.
 */
export async function createTable(
  db: Kysely<any>,
  table: TableName,
  build: (builder: CreateTableBuilder<string, never>) => CreateTableBuilder<string, any>,
) {
  await build(db.schema.createTable(snake(table)))
    .$call(withChecks(table))
    .execute();
}

/** A plain index named after its table and columns: `<table>_<col>_<col>_idx`. */
export async function index(db: Kysely<any>, table: string, columns: string[]) {
  await db.schema
    .createIndex(`${table}_${columns.map((c) => c.replace(/ desc$/, '')).join('_')}_idx`)
    .on(table)
    .columns(columns)
    .execute();
}
