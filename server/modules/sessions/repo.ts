import { type DB, nowIso } from '../../db';

/** SQL of sessions: the only place that reads or writes the sessions table. */

export function findSessionWithUser(db: DB, id: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select([
      'sessions.createdAt',
      'sessions.lastSeenAt',
      'users.id',
      'users.email',
      'users.fullName',
      'users.type',
      'users.status',
      'users.preferredLocale',
    ])
    .where('sessions.id', '=', id)
    .executeTakeFirst();
}

export async function insertSession(
  db: DB,
  session: { id: string; userId: number; ip: string | null; userAgent: string | null },
) {
  const now = nowIso();
  await db
    .insertInto('sessions')
    .values({ ...session, createdAt: now, lastSeenAt: now })
    .execute();
}

export async function touchSession(db: DB, id: string) {
  await db.updateTable('sessions').set({ lastSeenAt: nowIso() }).where('id', '=', id).execute();
}

export async function deleteSession(db: DB, id: string) {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteUserSessions(db: DB, userId: number, exceptId?: string | null) {
  let query = db.deleteFrom('sessions').where('userId', '=', userId);
  if (exceptId) query = query.where('id', '!=', exceptId);
  await query.execute();
}

/** Sessions idle since before `lastSeenBefore` or started before `createdBefore`; returns how many went. */
export async function deleteExpiredSessions(db: DB, lastSeenBefore: string, createdBefore: string): Promise<number> {
  const result = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('lastSeenAt', '<', lastSeenBefore), eb('createdAt', '<', createdBefore)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
