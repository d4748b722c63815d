import { sql } from 'kysely';
import type { DatabaseHandle, DB } from '../server/db';
import { backfillLastLicenceEnd } from '../server/db/migrations/015_customer_last_licence_end';
import { seedDownloads } from './scale-downloads';

/**
 * Bulk data for bench/scale.ts, written by the database itself (generate_series on PostgreSQL, a
 * recursive CTE on SQLite) so that 1M licences take seconds, through the real migrations, triggers
 * and indexes. Names are built from word lists, so searches meet realistic repetition.
 */
export const FIRST_NAMES = (
  'Marie Jean Pierre Anne Louis Claire Paul Sophie Michel Julie Nicolas Laura Thomas Emma Lucas Chloe Hugo ' +
  'Alice Arthur Lea Jules Manon Adam Ines Louise Gabriel Jade Raphael Lina Nathan Camille Ethan Sarah Noah ' +
  'Olivia Liam Mia Oliver Amelia James Isla William Ava Henry Grace Leo Ella Oscar Freya Jack Ivy Harry ' +
  'Priya Arjun Wei Yuki Hiroshi Fatima Omar Ahmed Leila Sven Ingrid Lars Astrid Mateo Lucia Diego Sofia'
).split(' ');

export const LAST_NAMES = (
  'Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefebvre Michel ' +
  'Garcia David Bertrand Roux Vincent Fournier Morel Girard Andre Mercier Dupont Lambert Bonnet Francois ' +
  'Martinez Legrand Garnier Faure Rousseau Blanc Guerin Muller Henry Roussel Nicolas Perrin Morin Mathieu ' +
  'Clement Gauthier Dumont Lopez Fontaine Chevalier Robin Masson Sanchez Gerard Nguyen Boyer Denis Lemaire ' +
  'Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Moore Jackson White Harris ' +
  'Clark Lewis Walker Hall Allen Young King Wright Scott Green Baker Adams Nelson Hill Campbell Mitchell ' +
  'Roberts Carter Phillips Evans Turner Torres Parker Collins Edwards Stewart Morris Murphy Cook Rogers ' +
  'Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf Neumann ' +
  'Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti Costa ' +
  'Tanaka Suzuki Takahashi Watanabe Ito Yamamoto Nakamura Kobayashi Kato Sato Kim Lee Park Choi Chen Wang'
).split(' ');

const DOMAINS = 'acme.example globex.example initech.example umbrella.example stark.example wayne.example'.split(' ');

export const COMPANY_WORDS = [
  (
    'North South East West Blue Red Green Silver Golden Iron Stone River Lake Ocean Sun Star Moon Cloud ' +
    'Bright Swift Prime Alpha Delta Omega Nova Apex Summit Vertex Pioneer Atlas Titan Orion Vega Polar ' +
    'Coastal Alpine Urban Royal Grand United Global Pacific Atlantic Central Metro Rapid Smart Clear Deep'
  ).split(' '),
  (
    'Logistics Analytics Systems Networks Dynamics Energy Health Capital Foods Labs Robotics Software ' +
    'Security Insurance Media Pharma Motors Textiles Airlines Telecom Foundry Mining Shipping Retail ' +
    'Consulting Biotech Graphics Semiconductors Chemicals Materials Ventures Holdings Partners Works ' +
    'Industries Solutions Services Technologies Instruments Devices Data Cloud Markets Trading Finance'
  ).split(' '),
  'GmbH SA SAS Ltd Inc LLC AG BV Oy AB SpA Corp Group PLC KK'.split(' '),
];

/** A word in one customer name in ten (customers 30 to 39, 130 to 139, ...), at every size. */
export const DENSE_WORD = 'International';

async function insertWords(db: DB, kind: string, words: string[]) {
  await sql`insert into bench_words (kind, i, w) values ${sql.join(words.map((w, i) => sql`(${kind}, ${i}, ${w})`))}`.execute(
    db,
  );
}

type Size = {
  customers: number;
  users: number;
  licencesPerCustomer: number;
  /** the customers whose licences download (DOWNLOADING_CUSTOMERS unless given) */
  downloadingCustomers?: number;
  /** false: no downloads and no analytics aggregates (a run of queries that read none of them) */
  downloads?: boolean;
  /** a version per customer for the staff search (the analytics would read them all): none unless true */
  searchedVersions?: boolean;
};

export async function seed(handle: DatabaseHandle, size: Size) {
  const pg = handle.dialect === 'postgres';
  // One connection for the whole seed, so that its session settings hold for every statement.
  await handle.db.connection().execute(async (db) => {
    if (pg) {
      await sql`set synchronous_commit = off`.execute(db);
      // Foreign keys are checked by a trigger per row; the seed's keys are right by construction.
      // This needs a superuser: without one the seed is only slower.
      await sql`set session_replication_role = replica`.execute(db).catch(() => undefined);
    } else {
      // The licences' random download secrets land all over their unique index: keep it in memory.
      await sql`pragma cache_size = -262144`.execute(db);
    }
    await seedWith(db, pg, size);
    if (pg) await sql`reset session_replication_role`.execute(db).catch(() => undefined);
  });
  // Steady state, as autovacuum leaves it: statistics, and GIN's pending list merged into the index.
  if (pg) await sql`vacuum analyze`.execute(handle.db);
}

async function seedWith(db: DB, pg: boolean, size: Size) {
  const series = (n: number) =>
    pg
      ? sql.raw(`generate_series(1, ${n}) as s(i)`)
      : sql.raw(
          `(with recursive r(i) as (select 1 union all select i + 1 from r where i < ${n}) select i from r) as s`,
        );
  const pad = (expr: string, width: number) =>
    sql.raw(pg ? `lpad((${expr})::text, ${width}, '0')` : `printf('%0${width}d', ${expr})`);
  const day = (from: string, offset: string) =>
    sql.raw(pg ? `(date '${from}' + (${offset})::int)::text` : `date('${from}', '+' || (${offset}) || ' days')`);
  const secret = sql.raw(pg ? `md5(c.id || '-' || s.i)` : `lower(hex(randomblob(16)))`);
  const now = new Date().toISOString();

  await sql`create table bench_words (kind text not null, i integer not null, w text not null, primary key (kind, i))`.execute(
    db,
  );
  await insertWords(db, 'first', FIRST_NAMES);
  await insertWords(db, 'last', LAST_NAMES);
  await insertWords(db, 'domain', DOMAINS);
  for (const [n, words] of COMPANY_WORDS.entries()) await insertWords(db, `company${n}`, words);
  const [nf, nl, nd] = [FIRST_NAMES.length, LAST_NAMES.length, DOMAINS.length];
  const [c0, c1, c2] = COMPANY_WORDS.map((w) => w.length);

  await sql`
    insert into users (email, full_name, type, status, preferred_locale, created_at, updated_at)
    select lower(f.w) || '.' || lower(l.w) || s.i || '@' || d.w, f.w || ' ' || l.w, 'client', 'enabled', 'en', ${now}, ${now}
    from ${series(size.users)}
    join bench_words f on f.kind = 'first' and f.i = s.i % ${sql.lit(nf)}
    join bench_words l on l.kind = 'last' and l.i = (s.i / ${sql.lit(nf)}) % ${sql.lit(nl)}
    join bench_words d on d.kind = 'domain' and d.i = s.i % ${sql.lit(nd)}`.execute(db);

  // Unique names (mixed radix of the index, then a number once the combinations run out) and
  // unique ten-character keys (a multiplication modulo a prime scatters them). One name in ten, at
  // every size, holds DENSE_WORD: a search that matches many customers; a tenth of those are hidden
  // by the default list's rule, like every tenth customer (below).
  await sql`
    insert into customers (name, customer_key, created_at, updated_at)
    select a.w || ' ' || b.w || case when (s.i / 10) % 10 = 3 then ${sql.lit(` ${DENSE_WORD}`)} else '' end || ' ' || c.w || case when s.i >= ${sql.lit(c0 * c1 * c2)} then ' ' || (s.i / ${sql.lit(c0 * c1 * c2)}) else '' end,
           'K' || ${pad(`(s.i * 7919) % 1000003`, 9)}, ${now}, ${now}
    from ${series(size.customers)}
    join bench_words a on a.kind = 'company0' and a.i = s.i % ${sql.lit(c0)}
    join bench_words b on b.kind = 'company1' and b.i = (s.i / ${sql.lit(c0)}) % ${sql.lit(c1)}
    join bench_words c on c.kind = 'company2' and c.i = (s.i / ${sql.lit(c0 * c1)}) % ${sql.lit(c2)}`.execute(db);

  // as many products as licences per customer: a customer holds one licence per product (migration 006)
  const products = [
    'graph',
    'graph-server',
    'studio',
    'connector',
    'analytics',
    'graph-cloud',
    'toolkit',
    'gateway',
    'insights',
    'sdk',
  ];
  if (size.licencesPerCustomer > products.length) throw new Error(`at most ${products.length} licences per customer`);
  await sql`insert into products (key, name, created_at, updated_at) values ${sql.join(
    products.map((key) => sql`(${key}, ${key}, ${now}, ${now})`),
  )}`.execute(db);
  await insertWords(db, 'product', products);
  // Every tenth customer's licences all ended years ago (hidden from the default customer list);
  // the others have one running licence and a spread of past and future ones.
  await sql`
    insert into licences (customer_id, product_key, start_date, end_date, download_secret, created_at, updated_at)
    select c.id, p.w, '2018-01-01',
           case when c.id % 10 = 0 then ${day('2018-06-01', 'c.id % 500 + s.i * 20')}
                when s.i = 1 then ${day('2027-01-01', 'c.id % 700')}
                else ${day('2024-01-01', '(c.id * 37 + s.i * 101) % 1800')} end,
           ${secret}, ${now}, ${now}
    from customers c
    cross join ${series(size.licencesPerCustomer)}
    join bench_words p on p.kind = 'product' and p.i = s.i % ${sql.lit(products.length)}`.execute(db);
  await seedSearched(db, pg, size, series, now);
  // the customers' latest licence end, which the licences' triggers keep (SQLite) but this session
  // turns off (PostgreSQL)
  if (pg) await backfillLastLicenceEnd(db);
  await seedAuditLog(db, pg, size.customers * AUDIT_ENTRIES_PER_CUSTOMER, size.customers, series);
  if (size.downloads !== false)
    await seedDownloads(db, pg, size.customers, size.licencesPerCustomer, series, size.downloadingCustomers);
  await sql`drop table bench_words`.execute(db);
}

/** The account executive of the first SEARCH_EXECUTIVE_CUSTOMERS customers, at every size (the staff search's scope). */
export const SEARCH_EXECUTIVE_EMAIL = 'executive@bench.example';
const SEARCH_EXECUTIVE_CUSTOMERS = 20;

/**
 * What the staff's search box reads beyond customers and users (docs/decisions/079): each user a
 * technical contact of one customer, an account executive of the first 20 customers, and (when
 * asked: the analytics read every version) one version per customer spread over the products
 * (majors 2 to 11: the downloads' are 1.x.0), so that a version prefix such as "2." matches a tenth
 * of them at every size and "4.45.0" one, each with a file (a licence's list shows the latest).
 */
async function seedSearched(
  db: DB,
  pg: boolean,
  size: Size,
  series: (n: number) => ReturnType<typeof sql.raw>,
  now: string,
) {
  await sql`
    insert into memberships (user_id, customer_id, role, status, created_at)
    select users.id, 1 + (users.id - 1) % ${sql.lit(size.customers)}, 'technicalContact', 'enabled', ${now}
    from users`.execute(db);
  await sql`
    insert into users (email, full_name, type, status, preferred_locale, created_at, updated_at)
    values (${SEARCH_EXECUTIVE_EMAIL}, 'Bench Executive', 'accountExecutive', 'enabled', 'en', ${now}, ${now})`.execute(
    db,
  );
  await sql`
    insert into memberships (user_id, customer_id, role, status, created_at)
    select u.id, c.id, 'accountExecutive', 'enabled', ${now}
    from users u join customers c on c.id <= ${sql.lit(SEARCH_EXECUTIVE_CUSTOMERS)}
    where u.email = ${SEARCH_EXECUTIVE_EMAIL}`.execute(db);
  if (!size.searchedVersions) return;
  // product i % 10 gets major 2 + i % 10: "2." is a tenth of the versions, "4.45.0" one, at every size
  const semVer = `(2 + s.i % 10) || '.' || (s.i / 10) || '.0'`;
  // released a day apart in the order of their numbers, each with a file: a licence's latest release
  // with files (its list) is the product's newest version
  const released = pg ? `(date '2000-01-01' + s.i)::text` : `date('2000-01-01', '+' || s.i || ' days')`;
  await sql`
    insert into versions (product_key, title, type, sem_ver, description, release_date, published, created_at, updated_at)
    select p.w, p.w || ' ' || ${sql.raw(semVer)}, 'stable', ${sql.raw(semVer)}, '', ${sql.raw(released)}, 1, ${now}, ${now}
    from ${series(size.customers)}
    join bench_words p on p.kind = 'product' and p.i = s.i % 10`.execute(db);
  await sql`
    insert into artifacts (version_id, platform, file_name, storage_key, size, sha256, created_at)
    select id, 'linux', 'graph.tar.gz', 'bench/' || id, 1, '', ${now} from versions`.execute(db);
}

/** Audit entries per customer on average: 1M at 100k customers. */
const AUDIT_ENTRIES_PER_CUSTOMER = 10;
/** The customer whose recent actions the bench reads: one entry in ten is theirs (100k of 1M). */
export const BUSY_CUSTOMER_ID = 1;
/** Actions by share: every 1000th entry a rare one, then one in twenty an invitation. */
export const RARE_ACTION = 'createCustomer';
export const COMMON_ACTION = 'inviteMember';

async function seedAuditLog(
  db: DB,
  pg: boolean,
  entries: number,
  customers: number,
  series: (n: number) => ReturnType<typeof sql.raw>,
) {
  const createdAt = sql.raw(
    pg
      ? `to_char(timestamp '2024-01-01' + s.i * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
      : `strftime('%Y-%m-%dT%H:%M:%fZ', '2024-01-01', '+' || s.i || ' minutes')`,
  );
  await sql`
    insert into audit_log (customer_id, actor_id, actor_email, action, data, created_at)
    select case when s.i % 10 = 0 then ${sql.lit(BUSY_CUSTOMER_ID)} else 1 + s.i % ${sql.lit(customers)} end,
           null, 'user' || (s.i % 997) || '@example.com',
           case when s.i % 1000 = 0 then ${sql.lit(RARE_ACTION)}
                when s.i % 20 = 0 then ${sql.lit(COMMON_ACTION)}
                else 'downloadArtifact' end,
           '{"productName":"Graph Server","productVersion":"4.1.0","productPlatform":"linux"}',
           ${createdAt}
    from ${series(entries)}`.execute(db);
}
