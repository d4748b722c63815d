import {
  type Expression,
  type ExpressionBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { Locale, UserStatus, UserType } from '../../../common/roles';
import { countCap } from '../../../common/pagination';
import { type DB, nowIso } from '../../db';
import { emailEquals } from '../../db/email';
import { countUpTo, isPrefixFilter, sortOfMatches, textMatch } from '../../db/search';
import type { Database, UsersTable } from '../../db/schema';

export type UserRow = Pick<Selectable<UsersTable>, 'id' | 'email' | 'fullName' | 'type' | 'status' | 'preferredLocale'>;

const COLUMNS = ['id', 'email', 'fullName', 'type', 'status', 'preferredLocale'] as const;

/**
 * The Users page: by id; the filter matches the id, or a part of the full name or e-mail whatever the
 * case (the start of them for one or two characters). The total is counted up to a cap
 * (common/pagination countCap) so that a page costs the same whatever the number of users.
 *
 * One or two characters matching more users than the cap (one letter: the start of a name in twenty
 * at 100k users) walk the id order and test each row, stopping after the page, instead of sorting
 * every match (decision 089); the walk reads at most ID_WALK_ROWS_PER_ROW rows per row of the page,
 * and when it falls short the matches are sorted, as for a filter matching few. The count comes first
 * and says which. `plan: 'sortedMatches'` always sorts them.
 */
export async function listUsers(
  db: DB,
  page: { offset: number; length: number; filter?: string; plan?: 'sortedMatches' },
) {
  let query = db.selectFrom('users');
  const filter = page.filter?.trim();
  const byId = (eb: ExpressionBuilder<Database, 'users'>, text: Expression<SqlBool>) =>
    /^\d{1,9}$/.test(filter ?? '') ? eb.or([eb('users.id', '=', Number(filter)), text]) : text;
  if (filter) query = query.where((eb) => byId(eb, textMatch(db, 'users', filter)));
  const cap = countCap(page.offset, page.length);
  const sortedPage = () =>
    query
      .select(COLUMNS)
      .orderBy(filter ? sortOfMatches(db, sql.ref('users.id'), 'integer') : sql.ref('users.id'))
      .limit(page.length)
      .offset(page.offset)
      .execute();
  // one or two characters: the start of the name or e-mail, which tests a row as it is
  if (filter && isPrefixFilter(filter) && page.plan !== 'sortedMatches') {
    const count = await countUpTo(db, query, cap);
    let rows = count.capped ? await walkIdOrder(db, page, (eb) => byId(eb, textMatch(db, 'users', filter))) : [];
    if (rows.length < page.length) rows = await sortedPage();
    return { rows: rows as UserRow[], total: count.total, capped: count.capped };
  }
  const [rows, count] = await Promise.all([sortedPage(), countUpTo(db, query, cap)]);
  return { rows: rows as UserRow[], total: count.total, capped: count.capped };
}

const ID_WALK_ROWS_PER_ROW = 100;

/**
 * The page of the users matching `condition` among the first rows in id order: the primary key read
 * in order up to its bound, each row tested. Fewer rows than the page: the matches lie further.
 */
function walkIdOrder(
  db: DB,
  page: { offset: number; length: number },
  condition: (eb: ExpressionBuilder<Database, 'users'>) => Expression<SqlBool>,
) {
  const head = db
    .selectFrom('users')
    .selectAll()
    .orderBy('id')
    .limit(ID_WALK_ROWS_PER_ROW * (page.offset + page.length));
  // named `users`, so that the condition refers to its columns as to the table's
  return (db.selectFrom(head.as('users')) as unknown as SelectQueryBuilder<Database, 'users', object>)
    .where(condition)
    .select(COLUMNS)
    .orderBy('users.id')
    .limit(page.length)
    .offset(page.offset)
    .execute();
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
