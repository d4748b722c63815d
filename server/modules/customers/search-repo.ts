import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { addDays, LICENCE_GRACE_DAYS, utcToday } from '../../../common/licence-status';
import { COUNT_CAP_STEP, countCap, SEARCH_COUNT_CAP_STEP } from '../../../common/pagination';
import type { MemberRole } from '../../../common/roles';
import type { DB } from '../../db';
import { preparedQuery } from '../../db/prepared';
import { memberCustomerIds } from '../members/repo';
import { prefixSearchPage } from './prefix-search-repo';
import type { Database } from '../../db/schema';
import {
  countUpTo,
  endTrigramsMatch,
  ftsMatch,
  isPostgres,
  isPrefixFilter,
  lowerKey,
  rowTextMatch,
  sortOfMatches,
  textMatch,
} from '../../db/search';

/**
 * The customer list's search (GET /api/customers?pageOffset&pageLength&filter): customers by name,
 * the filter matching a part of the name or of the customer key whatever the case (the start of them
 * for one or two characters). Served by the indexes of migration 002 (docs/decisions/013-search-at-scale.md).
 */

/** Adding this word to the filter also lists customers whose licences have all ended (decisions.md). */
const SHOW_ALL_TOKEN = 'all!';

interface CustomerSearchRow {
  id: number;
  name: string;
  customerKey: string;
  selfService: boolean;
  /** the role of the member's membership there; null when the search is not restricted to a member */
  memberRole: MemberRole | null;
}

/**
 * Restricts the search to the customers where `userId` holds an enabled membership with one of
 * `roles` (an account executive: accountExecutive; a client: the client roles).
 */
export interface MemberScope {
  userId: number;
  roles: readonly MemberRole[];
}

/**
 * How far a search that matches many customers walks the name order for its page: this many rows of
 * the index per row of the page (a first page: 1,000 rows), enough when one customer in a hundred
 * matches, evenly through the alphabet. Beyond it the matches are few there, and the page is taken
 * from the trigram index instead (docs/decisions/049-dense-searches.md).
 */
const NAME_WALK_ROWS_PER_ROW = 100;

/**
 * `sortedMatches`: the page as it was before decisions 049 and 089 (every match sorted), for
 * bench:scale.
 */
type CustomerSearchPlan = 'auto' | 'sortedMatches';

interface CustomerSearchResult {
  rows: CustomerSearchRow[];
  /** exact when `capped` is false; otherwise there are more than `total` customers */
  total: number;
  capped: boolean;
}

/** Splits the `all!` word (any case, anywhere) from the text searched for. */
export function parseCustomerFilter(filter: string | undefined): { text: string; showAll: boolean } {
  const words = (filter ?? '').trim().split(/\s+/).filter(Boolean);
  const text = words.filter((w) => w.toLowerCase() !== SHOW_ALL_TOKEN);
  return { text: text.join(' '), showAll: text.length !== words.length };
}

/**
 * The last end date (YYYY-MM-DD) of a licence that has ended beyond its grace period on `today`. A
 * licence still counts during its grace (common/licence-status.ts, decisions.md), so a customer in
 * grace, the one most in need of a renewal, stays on the default list.
 */
export function lastEndedDate(today: Date): string {
  return addDays(utcToday(today), -LICENCE_GRACE_DAYS - 1);
}

export async function searchCustomers(
  db: DB,
  page: {
    offset: number;
    length: number;
    filter?: string;
    today?: Date;
    member?: MemberScope;
    plan?: CustomerSearchPlan;
  },
): Promise<CustomerSearchResult> {
  const { text, showAll } = parseCustomerFilter(page.filter);
  const { member } = page;
  const postgres = isPostgres(db);
  // The lists without a search (an admin's or a client's landing page): compiled once (server/db/prepared.ts).
  if (!text && !member) return staffList(db, page, showAll);
  if (!text && member) return memberList(db, page, member);
  let query = db.selectFrom('customers');
  // A member's customers come from the unique (user_id, customer_id) index: an `in` list drives the
  // query from the member's few memberships rather than probing every customer (server/scope.ts).
  if (member)
    query = query.where('customers.id', 'in', memberCustomerIds(db, { memberId: member.userId, roles: member.roles }));
  // Members see every customer they belong to; the rule hides customers from the staff's full list.
  // Hidden: a customer whose latest licence ended before the grace period; one without licences
  // stays. The latest end is the customer's own column (migration 015), not a probe of its licences.
  const shown =
    !showAll && !member
      ? sql<SqlBool>`coalesce(${sql.ref('customers.lastLicenceEnd')}, '9999-12-31') > ${lastEndedDate(page.today ?? new Date())}`
      : undefined;
  if (shown) query = query.where(shown);
  // By name whatever the case, in byte order so that the lower(name) index gives the order as it is.
  const lowerName = lowerKey(db, 'customers.name');
  // A text search counts in steps of 100 (common/pagination SEARCH_COUNT_CAP_STEP, decision 049).
  const cap = countCap(page.offset, page.length, text ? SEARCH_COUNT_CAP_STEP : COUNT_CAP_STEP);
  const select = <Q extends typeof query>(q: Q) =>
    q
      .select(['customers.id', 'customers.name', 'customers.customerKey', 'customers.selfService'])
      .select((eb) =>
        member
          ? eb
              .selectFrom('memberships')
              .whereRef('memberships.customerId', '=', 'customers.id')
              .where('memberships.userId', '=', member.userId)
              .select('memberships.role')
              .as('role')
          : sql<MemberRole | null>`null`.as('role'),
      );

  // One or two characters, of the staff's list: the start of the name or key (decision 089), read in
  // name order from the name index and up to the count's cap from the key index, never all of them.
  if (text && !member && isPrefixFilter(text) && page.plan !== 'sortedMatches') {
    const found = await prefixSearchPage(db, page, text, shown, cap);
    const rows =
      found.ids.length === 0
        ? []
        : await select(db.selectFrom('customers').where('customers.id', 'in', found.ids))
            .orderBy(lowerName)
            .orderBy('customers.id')
            .limit(page.length)
            .offset(page.offset)
            .execute();
    return result(rows, found);
  }

  // A search of the staff's list through the trigram index (decision 049): its capped count comes
  // first, and says whether the matches are many. Many: the page walks the name order and stops
  // after a page of matches, instead of sorting them all (a word in a tenth of 100k names: 10,000).
  // Few: the page sorts them, as the name order would pass most of the table to meet them.
  const rowMatch = text && !member && page.plan !== 'sortedMatches' ? rowTextMatch(db, 'customers', text) : undefined;
  let plannedCount: { total: number; capped: boolean } | undefined;
  if (rowMatch) {
    plannedCount = await countMatches(db, query, text, shown, cap);
    if (plannedCount.capped) {
      const rows = await walkNameOrder(db, page, rowMatch, shown, select);
      if (rows.length === page.length) return result(rows, plannedCount);
    }
  }

  if (text) query = query.where(textMatch(db, 'customers', text));
  const byName = text ? sortOfMatches(db, lowerName, 'text') : lowerName;
  // A search sorts all its matches to give the first ten, so the page can count them on the way
  // (a window count) instead of a second query finding them again: on SQLite that second pass was
  // half of the search's time (decision 025). Without a search the page stops after
  // ten rows of the name index, and a separate count capped at `cap` is the cheaper one. PostgreSQL
  // keeps the separate count: measured with the window, its search was no faster (decision 025).
  // A count made already (above) is not made again.
  const countInPage = text !== '' && !postgres && !plannedCount;
  const pageQuery = select(query)
    .select(countInPage ? sql<number>`count(*) over ()`.as('matches') : sql<number | null>`null`.as('matches'))
    .orderBy(byName)
    .orderBy('customers.id')
    .limit(page.length)
    .offset(page.offset);
  const separateCount = () => countUpTo(db, query, cap);
  const [rows, separate] = await Promise.all([
    pageQuery.execute(),
    plannedCount ?? (countInPage ? null : separateCount()),
  ]);
  let count = separate;
  if (!count) {
    // A page beyond the matches has no row to carry the count.
    const matches = rows.length > 0 ? Number(rows[0].matches) : null;
    count = matches === null ? await separateCount() : { total: Math.min(matches, cap), capped: matches > cap };
  }
  return result(rows, count);
}

/** The staff's list without a search: one prepared page and count per rule (hidden ended customers or `all!`). */
const staffListQueries = (showAll: boolean) => {
  type Params = { lastEnded: string; length: number; offset: number; capPlusOne: number };
  const base = (db: DB, param: <K extends keyof Params>(name: K) => Params[K]) => {
    const query = db.selectFrom('customers');
    return showAll
      ? query
      : query.where(
          sql<SqlBool>`coalesce(${sql.ref('customers.lastLicenceEnd')}, '9999-12-31') > ${param('lastEnded')}`,
        );
  };
  return {
    page: preparedQuery<Params>()((db: DB, param) =>
      base(db, param)
        .select(['customers.id', 'customers.name', 'customers.customerKey', 'customers.selfService'])
        .select([sql<MemberRole | null>`null`.as('role'), sql<number | null>`null`.as('matches')])
        .orderBy(lowerKey(db, 'customers.name'))
        .orderBy('customers.id')
        .limit(param('length'))
        .offset(param('offset')),
    ),
    count: preparedQuery<Params>()((db: DB, param) => {
      const shown = base(db, param).select(sql`1`.as('one'));
      // PostgreSQL: in the order of the index of migration 019, so that the planner reads the count
      // from its leaf pages; its estimate otherwise prefers a scan of the table, which after a
      // rewrite of every row reads a half of free pages first (2.5 ms at 100k, decision 049).
      const ordered =
        isPostgres(db) && !showAll
          ? shown.orderBy(sql`coalesce(${sql.ref('customers.lastLicenceEnd')}, '9999-12-31')`)
          : shown;
      return db
        .selectFrom(ordered.limit(param('capPlusOne')).as('capped'))
        .select((eb) => eb.fn.countAll<number>().as('n'));
    }),
  };
};
const STAFF_LIST = { shown: staffListQueries(false), all: staffListQueries(true) };

async function staffList(
  db: DB,
  page: { offset: number; length: number; today?: Date },
  showAll: boolean,
): Promise<CustomerSearchResult> {
  const queries = showAll ? STAFF_LIST.all : STAFF_LIST.shown;
  const cap = countCap(page.offset, page.length);
  const params = {
    lastEnded: lastEndedDate(page.today ?? new Date()),
    length: page.length,
    offset: page.offset,
    capPlusOne: cap + 1,
  };
  const [rows, counted] = await Promise.all([queries.page(db, params), queries.count.first(db, params)]);
  const n = Number(counted?.n ?? 0);
  return result(rows, { total: Math.min(n, cap), capped: n > cap });
}

/**
 * A member's list without a search: the same page and capped count as below, compiled once per set of
 * roles (a client's, an account executive's), the member's id a parameter.
 */
const memberListQueries = (roles: readonly MemberRole[]) => {
  type Params = { userId: number; length: number; offset: number; capPlusOne: number };
  const base = (db: DB, param: <K extends keyof Params>(name: K) => Params[K]) =>
    db.selectFrom('customers').where('customers.id', 'in', memberCustomerIds(db, { memberId: param('userId'), roles }));
  return {
    page: preparedQuery<Params>()((db: DB, param) =>
      base(db, param)
        .select(['customers.id', 'customers.name', 'customers.customerKey', 'customers.selfService'])
        .select((eb) =>
          eb
            .selectFrom('memberships')
            .whereRef('memberships.customerId', '=', 'customers.id')
            .where('memberships.userId', '=', param('userId'))
            .select('memberships.role')
            .as('role'),
        )
        .select(sql<number | null>`null`.as('matches'))
        .orderBy(lowerKey(db, 'customers.name'))
        .orderBy('customers.id')
        .limit(param('length'))
        .offset(param('offset')),
    ),
    count: preparedQuery<Params>()((db: DB, param) =>
      db
        .selectFrom(
          base(db, param)
            .select(sql`1`.as('one'))
            .limit(param('capPlusOne'))
            .as('capped'),
        )
        .select((eb) => eb.fn.countAll<number>().as('n')),
    ),
  };
};
const MEMBER_LISTS = new Map<string, ReturnType<typeof memberListQueries>>();

async function memberList(
  db: DB,
  page: { offset: number; length: number },
  member: MemberScope,
): Promise<CustomerSearchResult> {
  const rolesKey = member.roles.join(',');
  let queries = MEMBER_LISTS.get(rolesKey);
  if (!queries) {
    queries = memberListQueries([...member.roles]);
    MEMBER_LISTS.set(rolesKey, queries);
  }
  const cap = countCap(page.offset, page.length);
  const params = { userId: member.userId, length: page.length, offset: page.offset, capPlusOne: cap + 1 };
  const [rows, counted] = await Promise.all([queries.page(db, params), queries.count.first(db, params)]);
  const n = Number(counted?.n ?? 0);
  return result(rows, { total: Math.min(n, cap), capped: n > cap });
}

type PageRow = { id: number; name: string; customerKey: string; selfService: number; role: unknown };

function result(rows: PageRow[], count: { total: number; capped: boolean }): CustomerSearchResult {
  return {
    rows: rows.map((row) => ({
      id: row.id,
      name: row.name,
      customerKey: row.customerKey,
      selfService: row.selfService === 1,
      memberRole: (row.role as MemberRole | null) ?? null,
    })),
    total: count.total,
    capped: count.capped,
  };
}

/**
 * The capped count of a search's matches, read from the trigram index. On SQLite the FTS5 table
 * drives it and it stops at `cap` + 1 matches; as the right side of `in` (textMatch) the FTS5 table
 * would hand over every match first (10,000 for a word in a tenth of 100k names: 3.1 ms against
 * 0.39). PostgreSQL's bitmap of the GIN index holds every match whatever the form: it is asked for
 * the text's first and last trigrams only when it can (`endTrigramsMatch`), a cheaper bitmap.
 */
async function countMatches(
  db: DB,
  query: SelectQueryBuilder<Database, 'customers', object>,
  text: string,
  shown: Expression<SqlBool> | undefined,
  cap: number,
): Promise<{ total: number; capped: boolean }> {
  if (isPostgres(db)) {
    return countUpTo(db, query.where(endTrigramsMatch(db, 'customers', text) ?? textMatch(db, 'customers', text)), cap);
  }
  const { query: match, exact } = ftsMatch(text);
  const conditions = [
    sql<SqlBool>`customers_search match ${match}`,
    ...(exact ? [] : [rowTextMatch(db, 'customers', text)!]),
    ...(shown ? [shown] : []),
  ];
  const { rows } = await sql<{ n: number }>`select count(*) as n from (
      select 1 from customers_search join customers on customers.id = customers_search.rowid
      where ${sql.join(conditions, sql` and `)} limit ${cap + 1}) as capped`.execute(db);
  const n = Number(rows[0].n);
  return { total: Math.min(n, cap), capped: n > cap };
}

/**
 * A page of a search that matches many customers: the name index in order, each row tested, up to
 * NAME_WALK_ROWS_PER_ROW rows of it per row of the page (the inner limit). The inner query orders by
 * the index's own key, which the outer one names again, so both databases read the index in order
 * and stop at the page's last match; no index on the text can be used for the test, nor tempt the
 * planner. Fewer rows than the page: the matches are sparse at the start of the alphabet, and the
 * caller sorts them instead.
 */
async function walkNameOrder(
  db: DB,
  page: { offset: number; length: number },
  rowMatch: Expression<SqlBool>,
  shown: Expression<SqlBool> | undefined,
  select: (q: SelectQueryBuilder<Database, 'customers', object>) => SelectQueryBuilder<Database, 'customers', PageRow>,
): Promise<PageRow[]> {
  const key = lowerKey(db, 'name');
  const head = db
    .selectFrom('customers')
    .selectAll()
    .select(key.as('nameKey'))
    .orderBy('nameKey')
    .orderBy('id')
    .limit(NAME_WALK_ROWS_PER_ROW * (page.offset + page.length));
  // Named `customers`, so that the test and the rule refer to its columns as to the table's.
  let walk = (
    db.selectFrom(head.as('customers')) as unknown as SelectQueryBuilder<Database, 'customers', object>
  ).where(rowMatch);
  if (shown) walk = walk.where(shown);
  return select(walk)
    .orderBy(sql.ref('customers.nameKey'))
    .orderBy('customers.id')
    .limit(page.length)
    .offset(page.offset)
    .execute();
}
