import { type Selectable, sql } from 'kysely';
import type { Locale, UserStatus, UserType } from '../../../common/roles';
import { type DB, nowIso } from '../../db';
import { emailEquals } from '../../db/email';
import type { UsersTable } from '../../db/schema';

export type UserRow = Pick<Selectable<UsersTable>, 'id' | 'email' | 'fullName' | 'type' | 'status' | 'preferredLocale'>;

const COLUMNS = ['id', 'email', 'fullName', 'type', 'status', 'preferredLocale'] as const;

/** `like` treats % and _ as wildcards; a filter is literal text, so they (and the escape) are escaped. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listUsers(db: DB, page: { offset: number; length: number; filter?: string }) {
  let query = db.selectFrom('users');
  const filter = page.filter?.trim();
  if (filter) {
    const pattern = likePattern(filter);
    // lower() on both sides so SQLite and PostgreSQL agree on what "case-insensitive" means
    query = query.where((eb) => {
      const text = [
        sql<boolean>`lower(${sql.ref('fullName')}) like lower(${pattern}) escape '\\'`,
        sql<boolean>`lower(${sql.ref('email')}) like lower(${pattern}) escape '\\'`,
      ];
      return /^\d{1,9}$/.test(filter) ? eb.or([eb('id', '=', Number(filter)), ...text]) : eb.or(text);
    });
  }
  const [rows, count] = await Promise.all([
    query.select(COLUMNS).orderBy('id').limit(page.length).offset(page.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as UserRow[], total: Number(count.total) };
}

export async function findUserById(db: DB, id: number): Promise<UserRow | undefined> {
  return (await db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst()) as UserRow | undefined;
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
