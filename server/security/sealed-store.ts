import { sql } from 'kysely';
import type { DB } from '../db';

/** Where sealed values live: a table, the column naming its rows, the column holding the sealed value. */
export interface SealedLocation {
  table: string;
  key: string;
  column: string;
}

/** Every sealed value of a column, with its row's key. */
export async function sealedValues(db: DB, { table, key, column }: SealedLocation) {
  const { rows } = await sql<{ key: string | number; value: string }>`
    select ${sql.ref(key)} as key, ${sql.ref(column)} as value from ${sql.table(table)}
    where ${sql.ref(column)} is not null`.execute(db);
  return rows;
}

/** Replaces a row's sealed value only if it still holds `from` (another node may have resealed it). */
export async function replaceSealedValue(
  db: DB,
  { table, key, column }: SealedLocation,
  rowKey: string | number,
  from: string,
  to: string,
): Promise<void> {
  await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${to}
    where ${sql.ref(key)} = ${rowKey} and ${sql.ref(column)} = ${from}`.execute(db);
}
