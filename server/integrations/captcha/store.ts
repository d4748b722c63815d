import type { DB } from '../../db';

/** The answers of the built-in captcha already used, so that each is taken once on every node. */

/** Records a used answer: true for its first use (the primary key refuses the second). */
export async function spendCaptcha(db: DB, signature: string, expiresAt: string): Promise<boolean> {
  const inserted = await db
    .insertInto('usedCaptchas')
    .values({ signature, expiresAt })
    .onConflict((oc) => oc.column('signature').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Forgets answers past their expiry (they are refused anyway); a scheduled job runs it. */
export async function purgeUsedCaptchas(db: DB, now = Date.now()): Promise<number> {
  const result = await db
    .deleteFrom('usedCaptchas')
    .where('expiresAt', '<', new Date(now).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
