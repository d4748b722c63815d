import type { DB } from '../../db';

/** Remembers the id of a token handed to the support desk until it expires (migration 029). */
export async function insertJwtId(
  db: DB,
  row: { jti: string; userId: number; issuedAt: string; expiresAt: string },
): Promise<void> {
  await db.insertInto('supportJwtIds').values(row).execute();
}

/** Whether a token id was issued by this portal (and not purged yet). */
export async function jwtIdKnown(db: DB, jti: string): Promise<boolean> {
  const row = await db.selectFrom('supportJwtIds').select('jti').where('jti', '=', jti).executeTakeFirst();
  return row !== undefined;
}

/** Forgets the ids of the tokens that expired before `before`; how many went. */
export async function deleteExpiredJwtIds(db: DB, before: string): Promise<number> {
  const result = await db.deleteFrom('supportJwtIds').where('expiresAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The customer a user belongs to as a client, for the desk's organisation: the first of their
 * enabled memberships (the oldest), or none.
 */
export async function firstCustomerNameOf(db: DB, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('customers', 'customers.id', 'memberships.customerId')
    .select('customers.name')
    .where('memberships.userId', '=', userId)
    .where('memberships.status', '=', 'enabled')
    .orderBy('memberships.id')
    .limit(1)
    .executeTakeFirst();
  return row?.name ?? null;
}
