import { type SqlBool, sql } from 'kysely';
import { addDays, LICENCE_GRACE_DAYS, utcToday } from '../../../common/licenceStatus';
import { countCap } from '../../../common/pagination';
import type { MemberRole } from '../../../common/roles';
import type { DB } from '../../db';
import { countUpTo, isPostgres, sortOfMatches, textMatch } from '../../db/search';

/**
 * The customer list's search (GET /api/customers?pageOffset&pageLength&filter): customers by name,
 * the filter matching a part of the name or of the customer key whatever the case (the start of them
 * for one or two characters). Served by the indexes of migration 002 (docs/decisions/013-search-at-scale.md).
 */

/** Adding this word to the filter also lists customers whose licences have all ended (decisions.md). */
export const SHOW_ALL_TOKEN = 'all!';

export interface CustomerSearchRow {
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

export interface CustomerSearchResult {
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
 * licence still counts during its grace (common/licenceStatus.ts, decisions.md), so a customer in
 * grace, the one most in need of a renewal, stays on the default list.
 */
export function lastEndedDate(today: Date): string {
  return addDays(utcToday(today), -LICENCE_GRACE_DAYS - 1);
}

export async function searchCustomers(
  db: DB,
  page: { offset: number; length: number; filter?: string; today?: Date; member?: MemberScope },
): Promise<CustomerSearchResult> {
  const { text, showAll } = parseCustomerFilter(page.filter);
  const { member } = page;
  let query = db.selectFrom('customers');
  // A member's customers come from the unique (user_id, customer_id) index: an `in` list drives the
  // query from the member's few memberships rather than probing every customer.
  const memberships = (scope: MemberScope) =>
    db
      .selectFrom('memberships')
      .where('memberships.userId', '=', scope.userId)
      .where('memberships.status', '=', 'enabled')
      .where('memberships.role', 'in', [...scope.roles]);
  if (member) query = query.where('customers.id', 'in', memberships(member).select('memberships.customerId'));
  if (text) query = query.where(textMatch(db, 'customers', text));
  // Members see every customer they belong to; the rule hides customers from the staff's full list.
  if (!showAll && !member) {
    const ended = lastEndedDate(page.today ?? new Date());
    // Hidden: a customer whose latest licence ended before the grace period; one without licences
    // stays. The latest end is the customer's own column (migration 015), not a probe of its licences.
    query = query.where(sql<SqlBool>`coalesce(${sql.ref('customers.lastLicenceEnd')}, '9999-12-31') > ${ended}`);
  }
  // By name whatever the case, in byte order so that the lower(name) index gives the order as it is.
  const lowerName = isPostgres(db)
    ? sql`lower(${sql.ref('customers.name')}) collate "C"`
    : sql`lower(${sql.ref('customers.name')})`;
  const byName = text ? sortOfMatches(db, lowerName, 'text') : lowerName;
  const cap = countCap(page.offset, page.length);
  // A search sorts all its matches to give the first ten, so the page can count them on the way
  // (a window count) instead of a second query finding them again: on SQLite that second pass was
  // half of the search's time (decision 025). Without a search the page stops after
  // ten rows of the name index, and a separate count capped at `cap` is the cheaper one. PostgreSQL
  // keeps the separate count: measured with the window, its search was no faster (decision 025).
  const countInPage = text !== '' && !isPostgres(db);
  const pageQuery = query
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
    )
    .select(countInPage ? sql<number>`count(*) over ()`.as('matches') : sql<number | null>`null`.as('matches'))
    .orderBy(byName)
    .orderBy('customers.id')
    .limit(page.length)
    .offset(page.offset);
  const separateCount = () => countUpTo(db, query, cap);
  const [rows, separate] = await Promise.all([pageQuery.execute(), countInPage ? null : separateCount()]);
  let count = separate;
  if (!count) {
    // A page beyond the matches has no row to carry the count.
    const matches = rows.length > 0 ? Number(rows[0].matches) : null;
    count = matches === null ? await separateCount() : { total: Math.min(matches, cap), capped: matches > cap };
  }
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
