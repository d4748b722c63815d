import { type Expression, PostgresAdapter, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '.';
import { preparedQuery } from './prepared';
import type { Database } from './schema';

/**
 * Substring search and capped counts that an index serves on both databases
 * (docs/decisions/013-search-at-scale.md; the indexes are in migrations/002_search.ts).
 */

/** Trigram indexes need three characters; a shorter filter matches the start of the text instead. */
const TRIGRAM_MIN_LENGTH = 3;

/** Tables with a search index, and the columns it covers (migrations/002_search.ts). */
const SEARCHED_COLUMNS = {
  users: ['fullName', 'email'],
  customers: ['name', 'customerKey'],
} as const;

/** Read from the query executor, so it also holds inside a transaction. */
export function isPostgres(db: DB): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** `like` treats % and _ as wildcards; a filter is literal text, so they (and the escape) are escaped. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An FTS5 query that is one phrase: the text as typed, quotes doubled, no operators. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * Rows of `table` where one of its searched columns contains `text`, whatever the case. Three
 * characters or more: a substring, through the trigram index (pg_trgm GIN on PostgreSQL, FTS5 on
 * SQLite). Fewer: the start of the column, through its lower() index, since no trigram index can
 * serve it.
 */
export function textMatch(db: DB, table: keyof typeof SEARCHED_COLUMNS, text: string): Expression<SqlBool> {
  const postgres = isPostgres(db);
  const columns = SEARCHED_COLUMNS[table];

  if (isPrefixFilter(text) || postgres) return anyOf(columns.map((c) => columnTextMatch(db, table, c, text)!));
  // The FTS5 table holds exactly the searched columns, and a phrase never spans two of them; a
  // column filter in the query would only cost time (measured: up to 3x).
  const fts = sql.raw(`${table}_search`);
  const candidates = (query: string) =>
    sql<SqlBool>`${sql.ref(`${table}.id`)} in (select rowid from ${fts} where ${fts} match ${query})`;
  const ends = endTrigrams(text);
  if (!ends) return candidates(ftsPhrase(text));
  // A phrase reads the position lists of every one of its trigrams, some of them in thousands of
  // rows at 100k: rows holding its first and last trigrams are few, and instr() checks the rest.
  const lowerText = text.toLowerCase();
  return sql<SqlBool>`(${candidates(`${ftsPhrase(ends[0])} ${ftsPhrase(ends[1])}`)} and ${anyOf(
    columns.map((c) => sql<SqlBool>`instr(lower(${sql.ref(`${table}.${c}`)}), ${lowerText}) > 0`),
  )})`;
}

/**
 * The part of `textMatch` that tests one of the searched columns, where it has one: a prefix filter
 * (its lower() index), and any filter on PostgreSQL (its pg_trgm index). Undefined for a longer
 * filter on SQLite, whose FTS5 table covers every column at once.
 */
export function columnTextMatch<T extends keyof typeof SEARCHED_COLUMNS>(
  db: DB,
  table: T,
  column: (typeof SEARCHED_COLUMNS)[T][number],
  text: string,
): Expression<SqlBool> | undefined {
  if (isPrefixFilter(text)) return startsWith(db, `${table}.${column}`, text);
  if (!isPostgres(db)) return undefined;
  return sql<SqlBool>`lower(${sql.ref(`${table}.${column}`)}) like lower(${likePattern(text)}) escape '\\'`;
}

/** A filter too short for trigrams: it matches the start of the text (`textMatch`). */
export function isPrefixFilter(text: string): boolean {
  return [...text].length < TRIGRAM_MIN_LENGTH;
}

/**
 * `column` lowered, as the lower() indexes of migrations 002 and 018 hold it: in byte order (the "C"
 * collation on PostgreSQL, SQLite's own), so that ordering or comparing by it reads such an index as
 * it is.
 */
export function lowerKey(db: DB, column: string) {
  return isPostgres(db) ? sql<string>`lower(${sql.ref(column)}) collate "C"` : sql<string>`lower(${sql.ref(column)})`;
}

/**
 * `column` starts with `text`, whatever the case: a range of its lower() index (in the "C"
 * collation on PostgreSQL, migrations 002 and 018), which also gives that index's order.
 */
export function startsWith(db: DB, column: string, text: string): Expression<SqlBool> {
  const postgres = isPostgres(db);
  const lowered = lowerKey(db, column);
  // [lower(text), lower(text) + the last code point): every string that starts with the text.
  const high = postgres ? sql`lower(${text}) || chr(1114111)` : sql`lower(${text}) || char(1114111)`;
  return sql<SqlBool>`(${lowered} >= lower(${text}) and ${lowered} < ${high})`;
}

/**
 * The condition of `textMatch` on the row alone, without the trigram index, for a query that walks
 * another index and tests each row it meets (docs/decisions/049-dense-searches.md); it keeps exactly
 * the rows `textMatch` keeps. Undefined when no such test is exact: a prefix filter (one or two
 * characters, served by its own index) and, on SQLite, a filter beyond ASCII, which the trigram
 * tokenizer folds by Unicode and SQLite's lower() does not.
 */
export function rowTextMatch(
  db: DB,
  table: keyof typeof SEARCHED_COLUMNS,
  text: string,
): Expression<SqlBool> | undefined {
  if ([...text].length < TRIGRAM_MIN_LENGTH) return undefined;
  // PostgreSQL: the same like(), which the GIN index serves or a row answers alike.
  if (isPostgres(db)) return textMatch(db, table, text);
  // eslint-disable-next-line no-control-regex
  if (!/^[\x00-\x7f]*$/.test(text)) return undefined;
  const columns = SEARCHED_COLUMNS[table];
  const lowerText = text.toLowerCase();
  const contains = anyOf(columns.map((c) => sql<SqlBool>`instr(lower(${sql.ref(`${table}.${c}`)}), ${lowerText}) > 0`));
  // Six characters or more: textMatch keeps the rows instr() finds, as is.
  if (endTrigrams(text)) return contains;
  // Shorter: one FTS5 phrase, whose Unicode folding also turns a few letters beyond ASCII into ASCII
  // ones (the Kelvin sign into k, the long s into s, the dotted capital I into i). A row holding one
  // of those asks the phrase; no other row can match it without instr() finding it.
  const fts = sql.raw(`${table}_search`);
  const folded = anyOf(columns.map((c) => sql<SqlBool>`${sql.ref(`${table}.${c}`)} glob '*[\u212a\u017f\u0130]*'`));
  return sql<SqlBool>`(${contains} or (${folded} and ${sql.ref(`${table}.id`)} in (select rowid from ${fts} where ${fts} match ${ftsPhrase(text)})))`;
}

/**
 * SQLite: the FTS5 query of `textMatch` and the check it applies to the candidates (none for a
 * phrase), for a query that reads the FTS5 table first and stops early (a capped count): as the
 * right side of `in`, the FTS5 table hands over every match before the first row is counted.
 */
export function ftsMatch(text: string): { query: string; exact: boolean } {
  const ends = endTrigrams(text);
  return ends
    ? { query: `${ftsPhrase(ends[0])} ${ftsPhrase(ends[1])}`, exact: false }
    : { query: ftsPhrase(text), exact: true };
}

/**
 * The first and last trigrams of a filter long enough for them not to overlap (six characters or
 * more), or undefined. ASCII only: SQLite's lower(), which checks the whole filter on the candidates,
 * folds ASCII letters only, where the trigram tokenizer folds all of Unicode.
 */
export function endTrigrams(text: string): [string, string] | undefined {
  // eslint-disable-next-line no-control-regex
  if (text.length < 2 * TRIGRAM_MIN_LENGTH || !/^[\x00-\x7f]*$/.test(text)) return undefined;
  return [text.slice(0, TRIGRAM_MIN_LENGTH), text.slice(-TRIGRAM_MIN_LENGTH)];
}

/**
 * PostgreSQL: the rows `textMatch` keeps, found in the trigram index through the text's first and
 * last trigrams only, each row then tested with the whole text (`strpos`, the same substring test
 * as `like` on the same lower()). For a count that stops at its cap (decision 049): the bitmap of
 * two trigrams costs about a third of the one of every trigram of a long text when the matches are
 * many (10,000 for a word in a tenth of 100k names), and its smaller estimate keeps the planner
 * from a sequential scan. Undefined elsewhere (SQLite has its own, `textMatch`), and when an end
 * is not three letters or digits, which the trigram index could not serve alone.
 */
export function endTrigramsMatch(
  db: DB,
  table: keyof typeof SEARCHED_COLUMNS,
  text: string,
): Expression<SqlBool> | undefined {
  if (!isPostgres(db)) return undefined;
  const ends = endTrigrams(text);
  if (!ends || !ends.every((end) => /^[a-z0-9]{3}$/i.test(end))) return undefined;
  return anyOf(
    SEARCHED_COLUMNS[table].map((c) => {
      const column = sql`lower(${sql.ref(`${table}.${c}`)})`;
      return sql<SqlBool>`(${column} like lower(${likePattern(ends[0])}) and ${column} like lower(${likePattern(ends[1])}) and strpos(${column}, lower(${text})) > 0)`;
    }),
  );
}

/** A condition on the row that never changes, named for the compiled query that holds it. */
interface NamedCondition {
  name: string;
  where: Expression<SqlBool>;
}

/** What `firstMatchIds` runs for a text: one compiled query per table, shape and extra condition. */
type MatchShape = 'prefix' | 'like' | 'phrase' | 'ends';
interface MatchParams {
  [name: string]: unknown;
  /** the text as typed (a prefix filter) */
  text: string;
  /** lower-cased, for instr() */
  lowerText: string;
  /** for like */
  pattern: string;
  /** the FTS5 query (SQLite) */
  ftsQuery: string;
  limit: number;
}

function matchShape(db: DB, text: string): MatchShape {
  if (isPrefixFilter(text)) return 'prefix';
  if (isPostgres(db)) return 'like';
  return ftsMatch(text).exact ? 'phrase' : 'ends';
}

/**
 * The query of `firstMatchIds` with placeholders: the same SQL as `textMatch` (prefix, like) or the
 * FTS5 join with `rowTextMatch`'s check (phrase, ends) writes for a text of that shape.
 */
function firstMatchQuery(table: keyof typeof SEARCHED_COLUMNS, shape: MatchShape, also?: NamedCondition) {
  const columns = SEARCHED_COLUMNS[table];
  return preparedQuery<MatchParams>()((db: DB, param) => {
    if (shape === 'prefix' || shape === 'like') {
      const match =
        shape === 'prefix'
          ? anyOf(columns.map((c) => startsWith(db, `${table}.${c}`, param('text'))))
          : anyOf(
              columns.map(
                (c) => sql<SqlBool>`lower(${sql.ref(`${table}.${c}`)}) like lower(${param('pattern')}) escape '\\'`,
              ),
            );
      let query = db.selectFrom(table).select(`${table}.id as id`).where(match);
      if (also) query = query.where(also.where);
      return query.limit(param('limit'));
    }
    const fts = sql.raw(`${table}_search`);
    const conditions = [
      sql<SqlBool>`${fts} match ${param('ftsQuery')}`,
      ...(shape === 'ends'
        ? [
            anyOf(
              columns.map((c) => sql<SqlBool>`instr(lower(${sql.ref(`${table}.${c}`)}), ${param('lowerText')}) > 0`),
            ),
          ]
        : []),
      ...(also ? [also.where] : []),
    ];
    const query = sql<{ id: number }>`select ${sql.ref(`${table}.id`)} as id from ${fts}
      join ${sql.table(table)} on ${sql.ref(`${table}.id`)} = ${fts}.rowid
      where ${sql.join(conditions, sql` and `)} limit ${param('limit')}`;
    return { compile: () => query.compile(db) };
  });
}
const FIRST_MATCH_QUERIES = new Map<string, ReturnType<typeof firstMatchQuery>>();

/**
 * The ids of at most `limit` rows of `table` that `textMatch` keeps (and `also`, a condition on the
 * row), in no useful order, read so that the query stops once it has them: a search box wants a few
 * matches of each kind, not the first few of a sorted list, and a sort would read every match (a word
 * in a tenth of 100k names: 10,000). On SQLite the FTS5 table drives a join, which hands its matches
 * over one by one; as the right side of `in` it would hand over all of them first. On PostgreSQL, and
 * for a prefix, the condition is textMatch's: its indexes serve it, and the planner may also walk
 * the table when its estimate says that matches are everywhere, which a limit then stops early.
 * docs/decisions/079-staff-search.md. The query is compiled once per table, shape of text and
 * condition (decision 093): the staff search runs it on every keystroke.
 */
export async function firstMatchIds(
  db: DB,
  table: keyof typeof SEARCHED_COLUMNS,
  text: string,
  limit: number,
  also?: NamedCondition,
): Promise<number[]> {
  const shape = matchShape(db, text);
  const key = `${table} ${shape} ${also?.name ?? ''}`;
  let query = FIRST_MATCH_QUERIES.get(key);
  if (!query) {
    query = firstMatchQuery(table, shape, also);
    FIRST_MATCH_QUERIES.set(key, query);
  }
  const rows = await query(db, {
    text,
    lowerText: text.toLowerCase(),
    pattern: likePattern(text),
    ftsQuery: ftsMatch(text).query,
    limit,
  });
  return rows.map((row) => Number(row.id));
}

/**
 * Rows where one of `columns` contains `text`, whatever the case, without an index: for lists
 * already narrowed to a handful of rows by an indexed condition (one customer's members or
 * invitations), where a plain scan of those rows costs less than any search index would.
 */
export function containsText(columns: readonly string[], text: string): Expression<SqlBool> {
  return containsPattern(columns, likePattern(text));
}

/** `containsText` given the text's `likePattern`, or a placeholder of a compiled query for it. */
export function containsPattern(columns: readonly string[], pattern: string): Expression<SqlBool> {
  // Both sides through the database's lower(), which folds the same letters on each.
  return anyOf(columns.map((c) => sql<SqlBool>`lower(${sql.ref(c)}) like lower(${pattern}) escape '\\'`));
}

function anyOf(conditions: Expression<SqlBool>[]): Expression<SqlBool> {
  return conditions.length === 1 ? conditions[0] : sql<SqlBool>`(${sql.join(conditions, sql` or `)})`;
}

/**
 * The sort key of a filtered list, out of reach of any index on PostgreSQL. Otherwise the planner,
 * when its estimate of the matches is too high (it samples a text pattern against a histogram),
 * walks the whole table in index order to meet the first ten, instead of fetching the few matches
 * through the trigram index and sorting them: hundreds of milliseconds instead of one, at 100k rows.
 */
export function sortOfMatches(db: DB, key: Expression<unknown>, type: 'integer' | 'text'): Expression<unknown> {
  if (!isPostgres(db)) return key;
  return type === 'integer' ? sql`(${key} + 0)` : sql`(${key} || '')`;
}

/**
 * Counts the rows of `query` up to `cap` + 1 and no further: `total` is exact when `capped` is
 * false, and a lower bound ("more than total") when it is true.
 */
export async function countUpTo(
  db: DB,
  query: SelectQueryBuilder<Database, any, object>,
  cap: number,
): Promise<{ total: number; capped: boolean }> {
  const row = await db
    .selectFrom(
      query
        .select(sql`1`.as('one'))
        .limit(cap + 1)
        .as('capped'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(row.n);
  return { total: Math.min(n, cap), capped: n > cap };
}
