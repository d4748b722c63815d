/**
 * API benchmark: the signed-in hot routes (the profile, a customer, its licences, its versions, the
 * customer list) over a real socket, side by side with a bare Fastify app that runs the very same
 * SQL, as prepared statements kept for reuse, on the same database: the floor any portal route
 * could reach. Each server runs in a process of its own (bench/api-server.ts); autocannon loads one
 * at a time, the two in turns, so the machine's other work weighs on both alike.
 * Budget (DESIGN.md section 6): every hot route at least 0.5x the bare app's requests per second.
 *
 * Run: npm run bench:api [-- --seconds 5 --connections 10 --rounds 2 --customers 1000]
 * SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (bench/run.mjs, a scratch database).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import {
  addMembership,
  createCustomer,
  createLicence,
  createProduct,
  createUser,
  createVersion,
  login,
} from '../server/test/factories';
import { request } from '../server/test/harness';
import { scratchPostgres } from '../server/test/scratch-postgres';
import type { CapturedRoute } from './api-server';
import { startServer } from './server-process';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    customers: { type: 'string', default: '1000' },
    profile: { type: 'string' },
    only: { type: 'string' },
    warmup: { type: 'string', default: '1' },
    // as production runs: the portal logs at info (to a file, as a log collector would take it)
    'log-level': { type: 'string', default: 'info' },
    // what a browser sends; '' asks for answers uncompressed
    encoding: { type: 'string', default: 'gzip, deflate, br, zstd' },
    'show-sql': { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
const CUSTOMERS = Number(values.customers);
const DIALECT = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-api-'));
let dropDatabase = async () => {};

async function databaseUrl(): Promise<string> {
  if (DIALECT === 'sqlite') return `sqlite:${path.join(work, 'bench.db')}`;
  const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL!, 'portal_bench_api');
  dropDatabase = scratch.drop;
  return scratch.url;
}

interface Route {
  name: string;
  /** as the table shows it */
  label: string;
  url: string;
  cookie: string;
}

/** The data, the routes and the SQL each route runs, from a portal built in this process. */
async function prepare(env: Record<string, string>): Promise<{ routes: Route[]; captured: CapturedRoute[] }> {
  let capturing: { sql: string; parameters: unknown[] }[] | null = null;
  const database = openDatabase(env.DATABASE_URL, {
    onQuery: (text, parameters) => capturing?.push({ sql: text, parameters: [...parameters] }),
  });
  const app = await buildApp(loadConfig(env), { database, startBackgroundWork: false });
  try {
    const { db } = app.ctx;
    const customer = await createCustomer(db, { name: 'Bench Analytics' });
    const owner = await createUser(db, { type: 'client', fullName: 'Bench Owner' });
    await addMembership(db, owner.id, customer.id, 'businessOwner');
    const products = [];
    for (let i = 0; i < 5; i++) {
      const product = await createProduct(db, { name: `Bench Product ${i}` });
      await createLicence(db, customer.id, product.key, { accessLevel: 'beta' });
      products.push(product.key);
    }
    for (let i = 0; i < 30; i++) await createVersion(db, products[0], { platforms: ['linux', 'windows', 'docker'] });
    for (let i = 0; i < CUSTOMERS; i++) {
      const other = await createCustomer(db, { name: `Bench Customer ${String(i).padStart(5, '0')}` });
      await createLicence(db, other.id, products[i % products.length]);
    }
    if (DIALECT === 'postgres') await sql`analyze`.execute(db);
    const admin = await createUser(db, { type: 'admin' });
    const ownerCookie = await login(app, owner.email);
    const adminCookie = await login(app, admin.email);
    const routes: Route[] = [
      { name: 'profile', label: 'the profile', url: '/api/auth/me', cookie: ownerCookie },
      { name: 'customer', label: 'a customer', url: `/api/customers/${customer.id}`, cookie: ownerCookie },
      {
        name: 'licences',
        label: 'its licences',
        url: `/api/customers/${customer.id}/licenses`,
        cookie: ownerCookie,
      },
      {
        name: 'versions',
        label: 'its versions of a product',
        url: `/api/products/${products[0]}/versions?customerId=${customer.id}&pageLength=10`,
        cookie: ownerCookie,
      },
      {
        name: 'customer-list',
        label: 'the customer list (admin)',
        url: '/api/customers?pageLength=10',
        cookie: adminCookie,
      },
      {
        name: 'owner-customers',
        label: 'the customer list (its owner)',
        url: '/api/customers?pageLength=10',
        cookie: ownerCookie,
      },
      {
        name: 'search',
        label: 'the staff search (admin)',
        url: '/api/search?q=bench%20cust',
        cookie: adminCookie,
      },
    ];
    const captured: CapturedRoute[] = [];
    for (const route of routes) {
      await request(app, route.cookie, { url: route.url });
      capturing = [];
      const response = await request(app, route.cookie, { url: route.url });
      if (response.statusCode !== 200) throw new Error(`${route.url}: ${response.statusCode} ${response.body}`);
      captured.push({ name: route.name, queries: capturing });
      capturing = null;
    }
    return { routes, captured };
  } finally {
    await app.close();
    await database.close();
  }
}

/**
 * `--only a,b`: the routes named so, each name either a route's whole name (`customer` is that route
 * alone) or else a part of the names it picks (`list`: both customer lists).
 */
function chosen(routes: Route[]): Route[] {
  if (!values.only) return routes;
  const names = values.only.split(',');
  return routes.filter((route) =>
    names.some((name) => name === route.name || (!routes.some((r) => r.name === name) && route.name.includes(name))),
  );
}

/**
 * `--profile DIR`: each server's process writes a CPU profile when it stops (node --cpu-prof), the
 * portal's into DIR/portal, the bare app's into DIR/bare.
 */
const PROFILE = values.profile ?? null;

const ENCODING = values.encoding ? { 'accept-encoding': values.encoding } : {};

/**
 * The CPU time (user and system, every thread) a process has used, in microseconds, from
 * /proc/<pid>/stat; null where there is none (not Linux).
 */
function cpuMicros(pid: number): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of the line, in clock ticks of 10 ms (USER_HZ is 100 on Linux)
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

async function load(url: string, headers: Record<string, string>, duration = SECONDS, pid?: number) {
  const cpuBefore = pid ? cpuMicros(pid) : null;
  const result = await autocannon({ url, headers: { ...ENCODING, ...headers }, connections: CONNECTIONS, duration });
  const cpuAfter = pid ? cpuMicros(pid) : null;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  return {
    perSecond: result.requests.average,
    p99: result.latency.p99,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
    // CPU time the server spent per answer: unlike requests per second, it holds on a machine whose
    // other work takes the cores away from both servers in turn
    cpuPerRequest:
      cpuBefore !== null && cpuAfter !== null ? (cpuAfter - cpuBefore) / Math.max(1, result.requests.total) : NaN,
  };
}

async function main() {
  const url = await databaseUrl();
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // the test harness's own address: its requests carry it as their Origin
    BASE_URL: 'http://portal.test',
    DATABASE_URL: url,
    SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0000',
    STATIC_DIR: path.join(work, 'no-client'),
    DATA_DIR: work,
    SEED_DEMO_DATA: 'false',
    // as production runs it: answers are not checked against their schemas (decision 055)
    CHECK_RESPONSES: 'false',
  };
  const envFile = path.join(work, 'env.json');
  fs.writeFileSync(envFile, JSON.stringify(env));
  // the portal's process logs as production does; the data above was prepared without a log
  const portalEnvFile = path.join(work, 'portal-env.json');
  fs.writeFileSync(portalEnvFile, JSON.stringify({ ...env, LOG_LEVEL: values['log-level'] }));
  const { routes, captured } = await prepare(env);
  if (values['show-sql']) {
    for (const route of captured) {
      console.log(`\n${route.name}:`);
      for (const query of route.queries) console.log(`  ${query.sql}`);
    }
  }
  const routesFile = path.join(work, 'routes.json');
  fs.writeFileSync(routesFile, JSON.stringify(captured));

  const portal = await startServer(['portal', portalEnvFile], {
    profileDir: PROFILE ? path.join(PROFILE, 'portal') : undefined,
    outputFile: path.join(work, 'portal.log'),
  });
  const bare = await startServer(['bare', envFile, routesFile], {
    profileDir: PROFILE ? path.join(PROFILE, 'bare') : undefined,
  });
  try {
    console.log(
      `\n${DIALECT}: ${CUSTOMERS} customers; ${CONNECTIONS} connections, ${SECONDS} s per measure, ${ROUNDS} rounds (mean); portal log level ${values['log-level']}, Accept-Encoding ${values.encoding || 'none'}`,
    );
    console.log(
      '| route | queries | portal req/s | bare, same SQL req/s | ratio | portal CPU µs/req | bare CPU µs/req | CPU ratio | portal p99 ms | bare p99 ms | portal bytes/answer |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const route of chosen(routes)) {
      // Both servers run the route a moment before it is measured: the compiler's warm-up is not measured.
      if (Number(values.warmup) > 0) {
        await load(`http://127.0.0.1:${portal.port}${route.url}`, { cookie: route.cookie }, Number(values.warmup));
        await load(`http://127.0.0.1:${bare.port}/${route.name}`, {}, Number(values.warmup));
      }
      const portalRuns = [];
      const bareRuns = [];
      for (let round = 0; round < ROUNDS; round++) {
        portalRuns.push(
          await load(
            `http://127.0.0.1:${portal.port}${route.url}`,
            { cookie: route.cookie },
            SECONDS,
            portal.child.pid,
          ),
        );
        bareRuns.push(await load(`http://127.0.0.1:${bare.port}/${route.name}`, {}, SECONDS, bare.child.pid));
      }
      const mean = (runs: Awaited<ReturnType<typeof load>>[], key: 'perSecond' | 'p99' | 'bytes' | 'cpuPerRequest') =>
        runs.reduce((sum, run) => sum + run[key], 0) / runs.length;
      const ratio = mean(portalRuns, 'perSecond') / mean(bareRuns, 'perSecond');
      const queries = captured.find((c) => c.name === route.name)!.queries.length;
      console.log(
        `| ${route.label} | ${queries} | ${mean(portalRuns, 'perSecond').toFixed(0)} | ${mean(bareRuns, 'perSecond').toFixed(0)} | ${ratio.toFixed(2)}x | ${mean(portalRuns, 'cpuPerRequest').toFixed(0)} | ${mean(bareRuns, 'cpuPerRequest').toFixed(0)} | ${(mean(bareRuns, 'cpuPerRequest') / mean(portalRuns, 'cpuPerRequest')).toFixed(2)}x | ${mean(portalRuns, 'p99').toFixed(1)} | ${mean(bareRuns, 'p99').toFixed(1)} | ${mean(portalRuns, 'bytes').toFixed(0)} |`,
      );
    }
  } finally {
    // SIGINT lets node write the CPU profile on its way out
    portal.child.kill('SIGINT');
    bare.child.kill('SIGINT');
    await dropDatabase();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
