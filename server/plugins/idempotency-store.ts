import { type DB, nowIso } from '../db';

/** The rows of the idempotency keys (idempotency.ts, docs/decisions/047), by caller and key. */

/** Inserts the key's row, under way (no status yet); the primary key refuses a second claim. */
export async function insertIdempotencyKey(db: DB, row: { caller: string; key: string; requestHash: string }) {
  await db
    .insertInto('idempotencyKeys')
    .values({ ...row, createdAt: nowIso() })
    .execute();
}

export function findIdempotencyKey(db: DB, caller: string, key: string) {
  return db
    .selectFrom('idempotencyKeys')
    .selectAll()
    .where('caller', '=', caller)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Takes over a key whose first request was abandoned (still under way since `createdAt`): true when taken. */
export async function retakeIdempotencyKey(db: DB, caller: string, key: string, createdAt: string): Promise<boolean> {
  const taken = await db
    .updateTable('idempotencyKeys')
    .set({ createdAt: nowIso() })
    .where('caller', '=', caller)
    .where('key', '=', key)
    .where('status', 'is', null)
    .where('createdAt', '=', createdAt)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

export async function deleteIdempotencyKey(db: DB, caller: string, key: string): Promise<void> {
  await db.deleteFrom('idempotencyKeys').where('caller', '=', caller).where('key', '=', key).execute();
}

export async function storeIdempotentAnswer(db: DB, caller: string, key: string, status: number, body: string) {
  await db
    .updateTable('idempotencyKeys')
    .set({ status, responseBody: body })
    .where('caller', '=', caller)
    .where('key', '=', key)
    .execute();
}

export async function deleteIdempotencyKeysBefore(db: DB, before: string): Promise<void> {
  await db.deleteFrom('idempotencyKeys').where('createdAt', '<', before).execute();
}
