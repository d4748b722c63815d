import { type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db';
import type { Database } from '../../db/schema';
import { countUpTo, lowerKey, startsWith } from '../../db/search';

/**
 * The staff's customer search for one or two characters (decision 089): customers whose name or
 * customer key starts with them, by name. A letter matches names by the thousand at 100k ("s": one
 * in six), so neither the page nor the count may read every match:
 * - names that start with it are one range of the lower(name) index, which is the page's order: read
 *   in order, stopping after the page;
 * - keys that start with it (and names that do not) are read from the lower(customer_key) index, in
 *   its order, up to the count's cap: that many or fewer are sorted for the page; more walk the name
 *   order, testing each row, at most NAME_WALK_ROWS_PER_ROW rows of it per row of the page (as
 *   decision 049's walk), and only when that walk falls short are they all sorted;
 * - the page is the first rows of both, in name order; the count is the sum of both counts, each
 *   stopping at the cap.
 */
const NAME_WALK_ROWS_PER_ROW = 100;

type Customers = SelectQueryBuilder<Database, 'customers', object>;

interface PrefixPage {
  /** the page's customers are the first of these in name order (the caller's page query sorts them) */
  ids: number[];
  total: number;
  capped: boolean;
}

export async function prefixSearchPage(
  db: DB,
  page: { offset: number; length: number },
  text: string,
  shown: Expression<SqlBool> | undefined,
  cap: number,
): Promise<PrefixPage> {
  const nameKey = lowerKey(db, 'customers.name');
  const keyKey = lowerKey(db, 'customers.customerKey');
  const byName = startsWith(db, 'customers.name', text);
  const byKeyOnly = sql<SqlBool>`(${startsWith(db, 'customers.customerKey', text)} and not ${byName})`;
  const where = (q: Customers, condition: Expression<SqlBool>) =>
    shown ? q.where(condition).where(shown) : q.where(condition);
  const upTo = page.offset + page.length;

  const [names, namesCount, keys] = await Promise.all([
    where(db.selectFrom('customers'), byName)
      .select('customers.id')
      .orderBy(nameKey)
      .orderBy('customers.id')
      .limit(upTo)
      .execute(),
    // the matches up to cap + 1, as the sum below needs them, in the index's order: PostgreSQL then
    // reads the range of the name index and stops at the cap, where it chose a scan of the table
    // that passed thousands of rows before its first match at 100k (decision 089)
    countUpTo(db, where(db.selectFrom('customers'), byName).orderBy(nameKey), cap).then(({ total, capped }) =>
      capped ? cap + 1 : total,
    ),
    // the key index drives it (the name order cannot serve the condition), in its own order so that
    // PostgreSQL reads its range rather than the table: no more than the cap
    where(db.selectFrom('customers'), byKeyOnly)
      .select('customers.id')
      .orderBy(keyKey)
      .limit(cap + 1)
      .execute(),
  ]);
  let keyIds = keys.map((row) => row.id);
  if (keyIds.length > cap) keyIds = await firstByNameOf(db, byKeyOnly, shown, nameKey, upTo);

  const n = namesCount + Math.min(keys.length, cap + 1);
  return { ids: [...names.map((row) => row.id), ...keyIds], total: Math.min(n, cap), capped: n > cap };
}

/**
 * The first `upTo` ids in name order of many customers matching `condition`: the name index walked in
 * order and each row tested, up to its bound; the matches all sorted when the walk falls short.
 */
async function firstByNameOf(
  db: DB,
  condition: Expression<SqlBool>,
  shown: Expression<SqlBool> | undefined,
  nameKey: RawBuilder<string>,
  upTo: number,
): Promise<number[]> {
  // the inner query orders by the index's own key, so it reads the index in order and stops at its
  // bound; named `customers`, so that the conditions refer to its columns as to the table's
  const head = db
    .selectFrom('customers')
    .selectAll()
    .select(nameKey.as('nameKey'))
    .orderBy('nameKey')
    .orderBy('id')
    .limit(NAME_WALK_ROWS_PER_ROW * upTo);
  let walk = (db.selectFrom(head.as('customers')) as unknown as Customers).where(condition);
  if (shown) walk = walk.where(shown);
  const walked = await walk
    .select('customers.id')
    .orderBy(sql.ref('customers.nameKey'))
    .orderBy('customers.id')
    .limit(upTo)
    .execute();
  if (walked.length === upTo) return walked.map((row) => row.id);
  let sorted = db.selectFrom('customers').where(condition);
  if (shown) sorted = sorted.where(shown);
  const rows = await sorted.select('customers.id').orderBy(nameKey).orderBy('customers.id').limit(upTo).execute();
  return rows.map((row) => row.id);
}
