import { type Selectable, sql } from 'kysely';
import type { Locale, UserStatus, UserType } from '../../../common/roles';
import { countCap } from '../../../common/pagination';
import { type DB, nowIso } from '../../db';
import { emailEquals } from '../../db/email';
import { countUpTo, sortOfMatches, textMatch } from '../../db/search';
import type { UsersTable } from '../../db/schema';

export type UserRow = Pick<Selectable<UsersTable>, 'id' | 'email' | 'fullName' | 'type' | 'status' | 'preferredLocale'>;

const COLUMNS = ['id', 'email', 'fullName', 'type', 'status', 'preferredLocale'] as const;

/**
 * The Users page: by id; the filter matches the id, or a part of the full name or e-mail whatever the
 * case (the start of them for one or two characters). The total is counted up to a cap
 * (common/pagination countCap) so that a page costs the same whatever the number of users.
 */
export async function listUsers(db: DB, page: { offset: number; length: number; filter?: string }) {
  let query = db.selectFrom('users');
  const filter = page.filter?.trim();
  if (filter) {
    const text = textMatch(db, 'users', filter);
    query = query.where((eb) => (/^\d{1,9}$/.test(filter) ? eb.or([eb('id', '=', Number(filter)), text]) : text));
  }
  const [rows, count] = await Promise.all([
    query
      .select(COLUMNS)
      .orderBy(filter ? sortOfMatches(db, sql.ref('users.id'), 'integer') : sql.ref('users.id'))
      .limit(page.length)
      .offset(page.offset)
      .execute(),
    countUpTo(db, query, countCap(page.offset, page.length)),
  ]);
  return { rows: rows as UserRow[], total: count.total, capped: count.capped };
}

/** Whether the database holds any user (the demo seed fills an empty one only). */
export async function anyUser(db: DB): Promise<boolean> {
  return (await db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function findUserById(db: DB, id: number): Promise<UserRow | undefined> {
  return (await db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst()) as UserRow | undefined;
}

/** Whether the account has chosen a password (staff created by an admin start without one). */
export async function hasPassword(db: DB, id: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('passwordHash').where('id', '=', id).executeTakeFirst();
  return Boolean(row?.passwordHash);
}

/** E-mail addresses are unique regardless of case. */
export async function emailTaken(db: DB, email: string, exceptUserId?: number): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where(emailEquals(email));
  if (exceptUserId !== undefined) query = query.where('id', '!=', exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertUser(
  db: DB,
  user: {
    email: string;
    fullName: string;
    type: UserType;
    preferredLocale: Locale;
    status?: UserStatus;
    passwordHash?: string | null;
  },
): Promise<UserRow> {
  const now = nowIso();
  const row = await db
    .insertInto('users')
    .values({
      email: user.email,
      fullName: user.fullName,
      type: user.type,
      status: user.status ?? 'enabled',
      preferredLocale: user.preferredLocale,
      passwordHash: user.passwordHash ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return row as UserRow;
}

export async function updateUser(
  db: DB,
  id: number,
  patch: Partial<Pick<UserRow, 'email' | 'fullName' | 'status' | 'preferredLocale'>>,
): Promise<UserRow | undefined> {
  const row = await db
    .updateTable('users')
    .set({ ...patch, updatedAt: nowIso() })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row as UserRow | undefined;
}
