/**
 * Scale benchmark: the list and search queries (users, customers, recent actions, a customer's licences,
 * the licences ending soon) at 1k and at 100k customers (10 licences each: 1M
 * licences; 10 audit entries each: 1M, a tenth of them one customer's recent actions; 100 downloads each:
 * 10M, with the download analytics' queries) and users, on SQLite and PostgreSQL, side by side in one
 * table with the ratio 100k/1k.
 * The budget (DESIGN.md section 6): every first page at 100k within 2x of the same at 1k.
 * Calls the repository functions the routes call (rows and capped count), no HTTP in between.
 *
 * Then the built portal starts on each database with its job runner on, and `/api/health` is timed
 * while the jobs its first start queues run (bench/scale-portal.ts).
 *
 * Run: npm run bench:scale [-- --sizes 1000,100000 --iterations 200 --databases sqlite,postgres
 *   --only 'analytics' --downloading-customers 2000 --portal-seconds 20]
 * The downloads are seeded only when a query that reads them is run (`--only 'customers:'` skips them).
 * PostgreSQL is measured when TEST_DATABASE_URL (or BENCH_DATABASE_URL) is set: a scratch database
 * is created on it and dropped after.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, type DialectName, migrateToLatest, openDatabase } from '../server/db';
import { likePattern } from '../server/db/search';
import { searchCustomers } from '../server/modules/customers/search-repo';
import { listAuditEntries } from '../server/modules/audit/repo';
import { listUsers } from '../server/modules/users/repo';
import { listEndingLicences, listLicences } from '../server/modules/licences/repo';
import { countCap } from '../common/pagination';
import { systemActor } from '../server/actor';
import type { AppContext } from '../server/context';
import * as analytics from '../server/modules/analytics/repo';
import { downloadAnalytics } from '../server/modules/analytics/service';
import { latestDownloadAt } from '../server/modules/downloads/repo';
import { addDays, utcToday } from '../common/licence-status';
import {
  BUSY_CUSTOMER_ID,
  COMMON_ACTION,
  COMPANY_WORDS,
  DENSE_WORD,
  FIRST_NAMES,
  LAST_NAMES,
  RARE_ACTION,
  seed,
} from './scale-seed';
import { DOWNLOADING_CUSTOMERS } from './scale-downloads';
import { search } from '../server/modules/search/service';
import type { Actor } from '../server/actor';
import type { StaffType } from '../common/roles';
import { SEARCH_EXECUTIVE_EMAIL } from './scale-seed';
import { disposeBuiltPortal, measurePortal, type PortalReading } from './scale-portal';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,100000' },
    iterations: { type: 'string', default: '200' },
    databases: { type: 'string', default: 'sqlite,postgres' },
    /** only the queries whose name holds this text (or one of these, separated by |) */
    only: { type: 'string', default: '' },
    'downloading-customers': { type: 'string', default: String(DOWNLOADING_CUSTOMERS) },
    /** how long /api/health is timed on the built portal while its jobs run; 0: the portal is not started */
    'portal-seconds': { type: 'string', default: '20' },
  },
});
const SIZES = values.sizes.split(',').map(Number);
const ITERATIONS = Number(values.iterations);
const DOWNLOADING = Number(values['downloading-customers']);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const PORTAL_SECONDS = Number(values['portal-seconds']);
const selected = (name: string) => values.only.split('|').some((part) => name.includes(part));
const PORTAL_START = 'portal: from its start to the first /api/health answer (built, jobs on)';
const PORTAL_RUN = 'portal: /api/health while the daily licence end run queues a job per licence it tells of';
const PORTAL_HEALTH = 'portal: /api/health while those jobs run';
const PORTAL_ROWS = [PORTAL_START, PORTAL_RUN, PORTAL_HEALTH];
const WITH_PORTAL = PORTAL_SECONDS > 0 && PORTAL_ROWS.some(selected);

// Filters whose matches exist at every size: built from the words of a row seeded early.
const NAME_PART = `${FIRST_NAMES[0].slice(-3)} ${LAST_NAMES[2].slice(0, 4)}`.toLowerCase();
const EMAIL_PREFIX = `${FIRST_NAMES[7]}.${LAST_NAMES[12].slice(0, 3)}`.toLowerCase();
const CUSTOMER_PART = `${COMPANY_WORDS[0][5].slice(1)} ${COMPANY_WORDS[1][3].slice(0, 5)}`.toLowerCase();
// A first name of one user in 68, in the e-mail address too: 1,449 users at 100k (decision 095).
const FIRST_NAME = FIRST_NAMES[0].toLowerCase();
// A word in one customer name in ten: the search that matches many rows (decision 049).
const DENSE = DENSE_WORD.toLowerCase();

/** The range of the licences-ending-soon list, as its route computes it for a 90-day look-ahead. */
const ENDING_RANGE = { from: utcToday(), to: addDays(utcToday(), 90) };

interface Query {
  name: string;
  run: (handle: DatabaseHandle) => Promise<unknown>;
  /** a first page: held to the 2x budget */
  firstPage: boolean;
  iterations?: number;
}

const page = (offset: number, filter?: string) => ({ offset, length: 10, filter });

/** The analytics' default range (the last 90 days), of every product and of one. */
const LAST_90 = { from: addDays(utcToday(), -89), to: utcToday(), productKey: null };
const ONE_PRODUCT = { ...LAST_90, productKey: 'graph-server' };
const ctxOf = (h: DatabaseHandle) => ({ db: h.db }) as AppContext;
const ANALYTICS_QUERIES: Query[] = [
  {
    name: 'downloads: latest download of a licence (10M rows at 100k)',
    firstPage: true,
    run: (h) => latestDownloadAt(h.db, 1),
  },
  {
    name: 'analytics: downloads per day and product, 90 days',
    firstPage: true,
    run: (h) => analytics.downloadsByDay(h.db, LAST_90, 'productKey'),
  },
  {
    name: 'analytics: downloads per day and version, 90 days, one product',
    firstPage: true,
    run: (h) => analytics.downloadsByDay(h.db, ONE_PRODUCT, 'versionId'),
  },
  {
    name: 'analytics: top customers, 90 days',
    firstPage: true,
    run: (h) => analytics.topCustomers(h.db, LAST_90, 10),
  },
  {
    name: 'analytics: top customers, 90 days, one product',
    firstPage: true,
    run: (h) => analytics.topCustomers(h.db, ONE_PRODUCT, 10),
  },
  {
    name: 'analytics: first downloads per day and the 50 latest, 90 days',
    firstPage: true,
    run: (h) =>
      Promise.all([analytics.firstDownloadsByDay(h.db, LAST_90), analytics.recentFirstDownloads(h.db, LAST_90, 50)]),
  },
  {
    name: 'analytics: share of customers on the latest version',
    firstPage: true,
    run: (h) => analytics.customersOnVersions(h.db, null, [5, 10, 15]),
  },
  {
    name: 'analytics: the whole route (every figure, 90 days)',
    firstPage: true,
    iterations: 40,
    run: (h) => downloadAnalytics(ctxOf(h), systemActor('bench'), {}),
  },
];
/** The signed-in staff member a search runs as: the seeded account executive, or any user of a global type. */
const executiveIds = new WeakMap<DatabaseHandle, number>();
async function staffActor(h: DatabaseHandle, type: StaffType): Promise<Actor> {
  let id = 0;
  if (type === 'accountExecutive') {
    id = executiveIds.get(h) ?? 0;
    if (!id) {
      const row = await h.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', SEARCH_EXECUTIVE_EMAIL)
        .executeTakeFirstOrThrow();
      executiveIds.set(h, (id = row.id));
    }
  }
  const user = {
    id,
    email: 'bench@example.com',
    fullName: 'Bench',
    type,
    status: 'enabled',
    preferredLocale: 'en',
  } as const;
  return { kind: 'user', user, ip: '127.0.0.1', userAgent: null, sessionHash: null };
}
/** GET /api/search as the route runs it (every kind the caller reaches, five of each). */
const staffSearch = (type: StaffType, q: string) => async (h: DatabaseHandle) =>
  search(ctxOf(h), await staffActor(h, type), { q, limit: 5 });
/** A customer's licences where each product has a version per 10 customers (seeded with the version searches). */
const LICENCES_WITH_VERSIONS: Query = {
  name: "licences: a customer's first page, beside a version per customer (the latest with files)",
  firstPage: true,
  run: (h) => listLicences(h.db, BUSY_CUSTOMER_ID, { offset: 0, length: 10 }),
};
const SEARCH_QUERIES: Query[] = [
  {
    name: `search: admin, "${CUSTOMER_PART}" (a few customers)`,
    firstPage: true,
    run: staffSearch('admin', CUSTOMER_PART),
  },
  { name: `search: admin, "${DENSE}" (a tenth of the customers)`, firstPage: true, run: staffSearch('admin', DENSE) },
  { name: `search: admin, "${NAME_PART}" (a few users)`, firstPage: true, run: staffSearch('admin', NAME_PART) },
  {
    name: `search: admin, "${FIRST_NAME}" (a first name of many users)`,
    firstPage: true,
    run: staffSearch('admin', FIRST_NAME),
  },
  { name: 'search: admin, "gl" (two letters: the start)', firstPage: true, run: staffSearch('admin', 'gl') },
  { name: 'search: admin, "#12" (a licence number)', firstPage: true, run: staffSearch('admin', '#12') },
  { name: 'search: admin, "4.45.0" (one version)', firstPage: true, run: staffSearch('admin', '4.45.0') },
  { name: 'search: admin, "2." (a tenth of the versions)', firstPage: true, run: staffSearch('admin', '2.') },
  { name: 'search: admin, "graph 2." (a product\'s versions)', firstPage: true, run: staffSearch('admin', 'graph 2.') },
  {
    name: `search: support engineer, "${NAME_PART}" (a few members)`,
    firstPage: true,
    run: staffSearch('supportEngineer', NAME_PART),
  },
  {
    name: `search: support engineer, "${FIRST_NAME}" (many members)`,
    firstPage: true,
    run: staffSearch('supportEngineer', FIRST_NAME),
  },
  {
    name: `search: account executive, "${DENSE}" (their 20 customers)`,
    firstPage: true,
    run: staffSearch('accountExecutive', DENSE),
  },
  {
    name: `search: account executive, "${FIRST_NAME}" (their customers' members)`,
    firstPage: true,
    run: staffSearch('accountExecutive', FIRST_NAME),
  },
];
const ALL_QUERIES: Query[] = [
  { name: `users: name substring "${NAME_PART}"`, firstPage: true, run: (h) => listUsers(h.db, page(0, NAME_PART)) },
  {
    name: `users: e-mail prefix "${EMAIL_PREFIX}"`,
    firstPage: true,
    run: (h) => listUsers(h.db, page(0, EMAIL_PREFIX)),
  },
  { name: 'users: one letter "s"', firstPage: true, run: (h) => listUsers(h.db, page(0, 's')) },
  {
    name: `users: "${FIRST_NAME}" (a first name, one user in 68: past the count's cap at 100k)`,
    firstPage: true,
    run: (h) => listUsers(h.db, page(0, FIRST_NAME)),
  },
  {
    name: `users: "${FIRST_NAME}", every match sorted (before decision 095)`,
    firstPage: false,
    run: (h) => listUsers(h.db, { ...page(0, FIRST_NAME), plan: 'sortedMatches' }),
  },
  { name: 'users: first page', firstPage: true, run: (h) => listUsers(h.db, page(0)) },
  { name: 'users: tenth page', firstPage: false, run: (h) => listUsers(h.db, page(90)) },
  {
    name: `customers: search "${CUSTOMER_PART}"`,
    firstPage: true,
    run: (h) => searchCustomers(h.db, page(0, CUSTOMER_PART)),
  },
  {
    name: `customers: dense search "${DENSE}" (a tenth of the names)`,
    firstPage: true,
    run: (h) => searchCustomers(h.db, page(0, DENSE)),
  },
  {
    name: `customers: dense search "${DENSE} all!" (a tenth of the names, every customer)`,
    firstPage: true,
    run: (h) => searchCustomers(h.db, page(0, `${DENSE} all!`)),
  },
  {
    name: `customers: dense search "${DENSE}", every match sorted (before decision 049)`,
    firstPage: false,
    run: (h) => searchCustomers(h.db, { ...page(0, DENSE), plan: 'sortedMatches' }),
  },
  {
    name: `customers: dense search "${DENSE} all!", every match sorted (before decision 049)`,
    firstPage: false,
    run: (h) => searchCustomers(h.db, { ...page(0, `${DENSE} all!`), plan: 'sortedMatches' }),
  },
  {
    name: 'customers: one letter "s" (the start of a name in six)',
    firstPage: true,
    run: (h) => searchCustomers(h.db, page(0, 's')),
  },
  {
    name: 'customers: one letter "k" (the start of every customer key)',
    firstPage: true,
    run: (h) => searchCustomers(h.db, page(0, 'k')),
  },
  {
    name: 'customers: one letter "s", every match sorted (before decision 089)',
    firstPage: false,
    run: (h) => searchCustomers(h.db, { ...page(0, 's'), plan: 'sortedMatches' }),
  },
  { name: 'customers: first page', firstPage: true, run: (h) => searchCustomers(h.db, page(0)) },
  {
    name: 'customers: first page with all! (every customer)',
    firstPage: true,
    run: (h) => searchCustomers(h.db, page(0, 'all!')),
  },
  { name: 'customers: tenth page', firstPage: false, run: (h) => searchCustomers(h.db, page(90)) },
  {
    name: "recent actions: a customer's first page",
    firstPage: true,
    run: (h) => listAuditEntries(h.db, BUSY_CUSTOMER_ID, { offset: 0, length: 10 }),
  },
  {
    name: `recent actions: first page of "${COMMON_ACTION}"`,
    firstPage: true,
    run: (h) => listAuditEntries(h.db, BUSY_CUSTOMER_ID, { offset: 0, length: 10, action: COMMON_ACTION }),
  },
  {
    name: `recent actions: first page of "${RARE_ACTION}" (rare)`,
    firstPage: true,
    run: (h) => listAuditEntries(h.db, BUSY_CUSTOMER_ID, { offset: 0, length: 10, action: RARE_ACTION }),
  },
  {
    name: "licences: a customer's first page",
    firstPage: true,
    run: (h) => listLicences(h.db, BUSY_CUSTOMER_ID, { offset: 0, length: 10 }),
  },
  {
    name: 'licences ending in the next 90 days: first page (every customer)',
    firstPage: true,
    run: (h) =>
      listEndingLicences(h.db, { every: true }, ENDING_RANGE, { offset: 0, length: 10, cap: countCap(0, 10) }),
  },
  ...ANALYTICS_QUERIES,
  ...SEARCH_QUERIES,
  LICENCES_WITH_VERSIONS,
  {
    name: 'reference, no index: users name substring + exact count',
    firstPage: false,
    iterations: 20,
    run: (h) => unindexedUserSearch(h, NAME_PART),
  },
];
const SELECTED = ALL_QUERIES.filter((query) => selected(query.name));
/** The 10M downloads take most of the seed: written only when a query reads them. */
const WITH_DOWNLOADS = SELECTED.some((query) => ANALYTICS_QUERIES.includes(query));
/**
 * The version searches need a version per customer, which the analytics read as a handful per
 * product (every version, to find each product's latest): the two are seeded and run apart.
 */
const VERSION_SEARCHES = [...SEARCH_QUERIES.filter((query) => query.name.includes('version')), LICENCES_WITH_VERSIONS];
const QUERIES = WITH_DOWNLOADS ? SELECTED.filter((query) => !VERSION_SEARCHES.includes(query)) : SELECTED;
const WITH_SEARCHED_VERSIONS = QUERIES.some((query) => VERSION_SEARCHES.includes(query));
if (QUERIES.length < SELECTED.length)
  console.error(
    "the version searches and the licences beside versions run without the analytics' queries: -- --only 'version'",
  );

/** The filter as it ran before migration 002: a scan (`|| ''` keeps any index out) and a full count. */
async function unindexedUserSearch({ db }: DatabaseHandle, filter: string) {
  const pattern = likePattern(filter);
  const query = db
    .selectFrom('users')
    .where((eb) =>
      eb.or([
        sql<boolean>`lower(${sql.ref('fullName')} || '') like lower(${pattern}) escape '\\'`,
        sql<boolean>`lower(${sql.ref('email')} || '') like lower(${pattern}) escape '\\'`,
      ]),
    );
  return Promise.all([
    query.select(['id', 'fullName']).orderBy('id').limit(10).execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Times `query` on every database in turn, round after round, so that the machine's other work
 * weighs on the small and the large database alike.
 */
async function measure(handles: DatabaseHandle[], query: Query) {
  const iterations = query.iterations ?? ITERATIONS;
  const times = handles.map(() => [] as number[]);
  for (let i = 0; i < Math.min(20, iterations); i++) for (const handle of handles) await query.run(handle); // warm-up
  for (let i = 0; i < iterations; i++) {
    for (const [n, handle] of handles.entries()) {
      const t0 = performance.now();
      await query.run(handle);
      times[n].push(performance.now() - t0);
    }
  }
  return times.map((list) => {
    list.sort((a, b) => a - b);
    return { p50: percentile(list, 50), p99: percentile(list, 99) };
  });
}

/** A fresh database: a temporary SQLite file, or a scratch PostgreSQL database. */
async function freshDatabase(
  dialect: DialectName,
): Promise<{ handle: DatabaseHandle; url: string; dispose: () => Promise<void> }> {
  const name = `portal_bench_scale_${crypto.randomBytes(4).toString('hex')}`;
  if (dialect === 'sqlite') {
    const file = path.join(os.tmpdir(), `${name}.db`);
    const handle = openDatabase(`sqlite:${file}`);
    return {
      handle,
      url: `sqlite:${file}`,
      dispose: async () => {
        await handle.close();
        for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL!);
  url.pathname = `/${name}`;
  const handle = openDatabase(url.toString());
  return {
    handle,
    url: url.toString(),
    dispose: async () => {
      await handle.close();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

type Timings = Map<string, { p50: number; p99: number }>;
/** The built portal's readings, per database and size. */
const portalReadings = new Map<DialectName, PortalReading[]>();

/** Every size of one database side by side: seeded one after the other, measured together. */
async function benchmark(dialect: DialectName): Promise<Timings[]> {
  const databases: Awaited<ReturnType<typeof freshDatabase>>[] = [];
  try {
    for (const size of SIZES) {
      const database = await freshDatabase(dialect);
      databases.push(database);
      await migrateToLatest(database.handle);
      const started = performance.now();
      await seed(database.handle, {
        customers: size,
        users: size,
        licencesPerCustomer: 10,
        downloadingCustomers: DOWNLOADING,
        downloads: WITH_DOWNLOADS,
        searchedVersions: WITH_SEARCHED_VERSIONS,
      });
      console.error(`${dialect} ${size}: seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    const timings: Timings[] = SIZES.map(() => new Map());
    for (const query of QUERIES) {
      const perSize = await measure(
        databases.map((d) => d.handle),
        query,
      );
      perSize.forEach((result, n) => timings[n].set(query.name, result));
    }
    // last: the portal's first start writes notifications and jobs the queries above do not expect
    if (WITH_PORTAL) {
      const readings: PortalReading[] = [];
      for (const [n, database] of databases.entries()) {
        const reading = await measurePortal(database.handle, database.url, PORTAL_SECONDS);
        readings.push(reading);
        const start = reading.startMs ?? Number.NaN;
        timings[n].set(PORTAL_START, { p50: start, p99: start });
        timings[n].set(PORTAL_RUN, {
          p50: percentile(reading.duringRun, 50) ?? Number.NaN,
          p99: percentile(reading.duringRun, 99) ?? Number.NaN,
        });
        timings[n].set(PORTAL_HEALTH, {
          p50: percentile(reading.latencies, 50) ?? Number.NaN,
          p99: percentile(reading.latencies, 99) ?? Number.NaN,
        });
        console.error(
          `${dialect} ${SIZES[n]}: portal answered after ${Math.round(start)} ms; ${reading.latencies.length} health requests, ${reading.queuedBefore} jobs queued, then ${reading.queuedAfter}`,
        );
      }
      portalReadings.set(dialect, readings);
    }
    return timings;
  } finally {
    for (const database of databases) await database.dispose();
  }
}

const WANTED = values.databases.split(',');
const dialects = (['sqlite', 'postgres'] as const).filter((d) => WANTED.includes(d) && (d === 'sqlite' || ADMIN_URL));
const results = new Map<DialectName, Timings[]>();
try {
  for (const dialect of dialects) results.set(dialect, await benchmark(dialect));
} finally {
  disposeBuiltPortal();
}
const ROWS: { name: string; firstPage: boolean }[] = [
  ...QUERIES,
  ...(WITH_PORTAL ? PORTAL_ROWS.map((name) => ({ name, firstPage: false })) : []),
];

const label = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));
const [small, large] = [SIZES[0], SIZES[SIZES.length - 1]];
const ms = (n: number) => n.toFixed(2);
console.log(
  `\n${ITERATIONS} runs per query (20 for the reference); ${label(large)} = ${label(large)} customers with ` +
    `${label(large * 10)} licences, ${label(large * 10)} audit entries (a tenth of them one customer's) and ` +
    `${label(large)} users, ` +
    (WITH_DOWNLOADS
      ? `${label(large * 100)} downloads by ${Math.min(large, DOWNLOADING)} customers over a year (${Math.min(small, DOWNLOADING)} at ${label(small)}). `
      : 'no downloads. ') +
    `Budget: first pages within 2x of ${label(small)}.\n`,
);
console.log(
  `| database | query | ${label(small)} p50 ms | ${label(small)} p99 ms | ${label(large)} p50 ms | ${label(large)} p99 ms | ratio p50 | ratio p99 |`,
);
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
let overBudget = 0;
for (const [dialect, perSize] of results) {
  for (const query of ROWS) {
    const a = perSize[0].get(query.name)!;
    const b = perSize[perSize.length - 1].get(query.name)!;
    const ratio = b.p50 / a.p50;
    const flag = query.firstPage && ratio > 2 ? ' (over 2x)' : '';
    if (flag) overBudget++;
    console.log(
      `| ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${query.name} | ${ms(a.p50)} | ${ms(a.p99)} | ${ms(b.p50)} | ${ms(b.p99)} | ${ratio.toFixed(1)}x${flag} | ${(b.p99 / a.p99).toFixed(1)}x |`,
    );
  }
}
console.log(overBudget ? `\n${overBudget} first-page queries over the 2x budget` : '\nEvery first page within 2x.');
for (const [dialect, readings] of portalReadings) {
  const [a, b] = [readings[0], readings[readings.length - 1]];
  const of = (r: PortalReading, size: number) =>
    `${label(size)}: ${r.startMs === null ? 'no answer within 180 s' : `first answer after ${(r.startMs / 1000).toFixed(1)} s`}, ` +
    `the daily run done ${r.runMs === null ? 'not within 300 s' : `${(r.runMs / 1000).toFixed(1)} s later`} ` +
    `(${r.duringRun.length} health requests meanwhile, slowest ${ms(r.duringRun.at(-1) ?? Number.NaN)} ms), then ` +
    `${r.latencies.length} health requests over ${PORTAL_SECONDS} s (slowest ${ms(r.latencies.at(-1) ?? Number.NaN)} ms) ` +
    `while ${r.queuedBefore} jobs were queued (${r.queuedAfter} at the end, ${r.finished} finished meanwhile)`;
  console.log(`${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} portal: ${of(a, small)}; ${of(b, large)}.`);
}
if (!ADMIN_URL && WANTED.includes('postgres')) console.log('PostgreSQL not measured: TEST_DATABASE_URL is not set');
