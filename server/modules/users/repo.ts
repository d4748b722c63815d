import {
  type Expression,
  type ExpressionBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { Locale, UserStatus, UserType } from '../../../common/roles';
import { COUNT_CAP_STEP, countCap, SEARCH_COUNT_CAP_STEP } from '../../../common/pagination';
import { type DB, nowIso } from '../../db';
import { emailEquals } from '../../db/email';
import {
  columnTextMatch,
  countUpTo,
  ftsMatch,
  isPostgres,
  isPrefixFilter,
  rowTextMatch,
  sortOfMatches,
  textMatch,
} from '../../db/search';
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
 * and says which. Three characters or more (decision 095): on SQLite the FTS5 table hands its
 * matches over in rowid order, which is the id order, so the page and the count read it in order and
 * stop (after the page, after cap + 1); on PostgreSQL, and for a filter of digits (which also
 * matches an id), the count comes first and past the cap the page walks the id order as above.
 * `plan: 'sortedMatches'` always sorts them.
 */
export async function listUsers(
  db: DB,
  page: { offset: number; length: number; filter?: string; plan?: 'sortedMatches' },
) {
  let query = db.selectFrom('users');
  const filter = page.filter?.trim();
  const digits = /^\d{1,9}$/.test(filter ?? '');
  const byId = (eb: ExpressionBuilder<Database, 'users'>, text: Expression<SqlBool>) =>
    digits ? eb.or([eb('users.id', '=', Number(filter)), text]) : text;
  if (filter) query = query.where((eb) => byId(eb, textMatch(db, 'users', filter)));
  // A filter counts in steps of 100, as the customer search does (SEARCH_COUNT_CAP_STEP, decision 096).
  const cap = countCap(page.offset, page.length, filter ? SEARCH_COUNT_CAP_STEP : COUNT_CAP_STEP);
  const sortedPage = () =>
    query
      .select(COLUMNS)
      .orderBy(filter ? sortOfMatches(db, sql.ref('users.id'), 'integer') : sql.ref('users.id'))
      .limit(page.length)
      .offset(page.offset)
      .execute();
  if (filter && page.plan !== 'sortedMatches') {
    // three characters or more on SQLite: the FTS5 table in its own order
    if (!isPrefixFilter(filter) && !digits && !isPostgres(db)) return ftsIdOrder(db, page, filter, cap);
    // the start of the name or e-mail (one or two characters), or the substring test on the row
    const rowMatch = isPrefixFilter(filter) ? textMatch(db, 'users', filter) : rowTextMatch(db, 'users', filter);
    if (rowMatch) {
      const walk = () => walkIdOrder(db, page, (eb) => byId(eb, rowMatch));
      // PostgreSQL, three characters or more: the walk runs beside the count, on a connection of
      // its own (the count rechecks a row per match, 1,001 past the cap). Otherwise the walk waits
      // for the count to say that the matches are many: SQLite runs one statement at a time, and
      // one or two letters count from an index alone (migration 037).
      const postgres = isPostgres(db);
      const [count, walked] =
        postgres && !isPrefixFilter(filter)
          ? await Promise.all([countNameFirst(db, filter, byId, cap), walk()])
          : [postgres ? await countNameFirst(db, filter, byId, cap) : await countUpTo(db, query, cap), undefined];
      let rows = walked ?? (count.capped ? await walk() : []);
      // The walk's rows are the page when they fill it, or when they are all the page holds.
      const pageRows = count.capped ? page.length : Math.max(0, Math.min(page.length, count.total - page.offset));
      if (rows.length < pageRows) rows = await sortedPage();
      return { rows: rows as UserRow[], total: count.total, capped: count.capped };
    }
  }
  const [rows, count] = await Promise.all([sortedPage(), countUpTo(db, query, cap)]);
  return { rows: rows as UserRow[], total: count.total, capped: count.capped };
}

/**
 * SQLite, a filter of three characters or more (not digits alone): the users the FTS5 table finds,
 * as `textMatch` keeps them (its query, and for a filter with a check of its own, `instr`), read
 * from the table in rowid order, which is the id order: the page stops after its last row and the
 * count after cap + 1, whatever the number of matches. As the right side of `in` (textMatch) the
 * FTS5 table hands over every match first, and the page sorts them (1,449 for "marie" at 100k).
 * A filter that is one phrase (three to five characters, or beyond ASCII) is counted in the FTS5
 * table alone, which holds a row per user (the triggers of migration 002): reading each match's row
 * of users only to count it doubled the count's time.
 */
async function ftsIdOrder(db: DB, page: { offset: number; length: number }, filter: string, cap: number) {
  const { query: match, exact } = ftsMatch(filter);
  const matches = sql<SqlBool>`users_search match ${match}`;
  const where = exact ? matches : sql<SqlBool>`${matches} and ${rowTextMatch(db, 'users', filter)!}`;
  const from = sql`users_search join users on users.id = users_search.rowid`;
  const columns = sql.join(COLUMNS.map((c) => sql.ref(`users.${c}`)));
  const rows = await sql<UserRow>`select ${columns} from ${from} where ${where}
    order by users_search.rowid limit ${page.length} offset ${page.offset}`.execute(db);
  const counted = await sql<{ n: number }>`select count(*) as n from (
    select 1 from ${exact ? sql`users_search` : from} where ${where} limit ${cap + 1}) as capped`.execute(db);
  const n = Number(counted.rows[0].n);
  return { rows: rows.rows, total: Math.min(n, cap), capped: n > cap };
}

/**
 * PostgreSQL, three characters or more: the capped count of the filter's users, those whose name
 * matches (or id) first, and only when they stay under the cap those whose e-mail alone matches.
 * Each match is a row of the table to recheck (pg_trgm's answer is a candidate), 1,001 of them past
 * the cap; the e-mail's bitmap then costs as much again, and a first name in the e-mail address as
 * in the name ("marie") is met in both. One statement: its second count is not run past the cap.
 */
async function countNameFirst(
  db: DB,
  filter: string,
  byId: (eb: ExpressionBuilder<Database, 'users'>, text: Expression<SqlBool>) => Expression<SqlBool>,
  cap: number,
): Promise<{ total: number; capped: boolean }> {
  const name = columnTextMatch(db, 'users', 'fullName', filter)!;
  const email = columnTextMatch(db, 'users', 'email', filter)!;
  const capped = (q: SelectQueryBuilder<Database, 'users', object>) =>
    db
      .selectFrom(
        q
          .select(sql`1`.as('one'))
          .limit(cap + 1)
          .as('capped'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'));
  const byName = capped(db.selectFrom('users').where((eb) => byId(eb, name)));
  const byEmailAlone = capped(
    db
      .selectFrom('users')
      .where(email)
      .where((eb) => eb.not(byId(eb, name))),
  );
  const row = await db
    .selectFrom(byName.as('named'))
    .select(sql<number>`case when named.n > ${cap} then named.n else named.n + (${byEmailAlone}) end`.as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return { total: Math.min(n, cap), capped: n > cap };
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
