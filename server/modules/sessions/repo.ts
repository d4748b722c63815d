import { type DB, nowIso } from '../../db';
import { preparedQuery } from '../../db/prepared';

/** SQL of sessions: the only place that reads or writes the sessions table. */

/** Read on every signed-in request: compiled once (server/db/prepared.ts). */
const sessionWithUser = preparedQuery<{ id: string }>()((db: DB, param) =>
  db
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
    .where('sessions.id', '=', param('id')),
);

export function findSessionWithUser(db: DB, id: string) {
  return sessionWithUser.first(db, { id });
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

const touch = preparedQuery<{ id: string; lastSeenAt: string }>()((db: DB, param) =>
  db
    .updateTable('sessions')
    .set({ lastSeenAt: param('lastSeenAt') })
    .where('id', '=', param('id')),
);

export async function touchSession(db: DB, id: string) {
  await touch(db, { id, lastSeenAt: nowIso() });
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
