/**
 * Background work benchmark (decision 063), on PostgreSQL:
 * - mails delivered per second through the outbox to a local SMTP peer (smtp-server), with one app
 *   node and with two (two contexts with pools of their own on one database), side by side;
 * - the daily licence end run (queueExpiryNotices) over a large licence table: its first run (which
 *   tells of every licence in its last 3 months) and the run of the next day (the steady state).
 * - the API's p99 latency (a signed-in `GET /api/auth/me`, autocannon) with the portal idle, then while
 *   the same portal process delivers `--drain` mails queued at once, side by side.
 * Budgets (issue: notifications): at least 200 mails per second; the daily run under 10 s at 1M licences;
 * the p99 while mails drain within 2x of idle.
 *
 * Run: npm run bench:jobs [-- --mails 2000 --licences 1000000 --drain 10000 --seconds 5 --profile DIR]
 * Needs TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres): a scratch database is
 * created and dropped.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { addDays, utcToday } from '../common/licence-status';
import { jobActor } from '../server/actor';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createContext } from '../server/compose';
import type { AppContext } from '../server/context';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../server/db';
import { queueExpiryNotices } from '../server/modules/notifications/expiry';
import { addMembership, createCustomer, createUser, login } from '../server/test/factories';
import { scratchPostgres } from '../server/test/scratch-postgres';
import { startServer } from './server-process';

const require = createRequire(import.meta.url);

const { values } = parseArgs({
  options: {
    mails: { type: 'string', default: '2000' },
    licences: { type: 'string', default: '1000000' },
    drain: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '5' },
    profile: { type: 'string' },
  },
});
const MAILS = Number(values.mails);
const LICENCES = Number(values.licences);
const DRAIN = Number(values.drain);
const SECONDS = Number(values.seconds);
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => silent } as never;

async function smtpPeer(): Promise<{ url: string; received: () => number; close: () => Promise<void> }> {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  // a portal process stopped at the end of a measure resets its kept connections
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const environment = (url: string, smtpUrl: string): Record<string, string> => ({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  BASE_URL: 'http://portal.test',
  DATABASE_URL: url,
  SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0',
  SMTP_URL: smtpUrl,
});

function node(url: string, smtpUrl: string): { ctx: AppContext; database: DatabaseHandle } {
  const config = loadConfig(environment(url, smtpUrl));
  const database = openDatabase(url);
  return { ctx: createContext({ config, database, log: silent }), database };
}

async function mailsPerSecond(url: string, nodes: number): Promise<number> {
  const peer = await smtpPeer();
  const started = Array.from({ length: nodes }, () => node(url, peer.url));
  const [first] = started;
  await first.ctx.db.deleteFrom('mailOutbox').execute();
  for (const { ctx } of started) await ctx.jobs.prepare();
  for (let i = 0; i < MAILS; i++) await first.ctx.mail.send(passwordReset(i));
  const begin = performance.now();
  await Promise.all(started.map(({ ctx }) => ctx.jobs.start()));
  while (peer.received() < MAILS) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - begin) / 1000;
  for (const { ctx, database } of started) {
    await ctx.jobs.stop();
    await ctx.mail.close();
    await database.close();
  }
  await peer.close();
  return MAILS / seconds;
}

async function expiryRun(url: string): Promise<{ first: number; next: number; told: number }> {
  const { ctx, database } = node(url, 'smtp://127.0.0.1:1');
  await ctx.jobs.prepare();
  const today = utcToday();
  // LICENCES licences of 10 products (one per customer and product), end dates spread over 4 years
  await sql`insert into products (key, name, description, customization_type, is_saas, created_at, updated_at)
    select 'bench-' || g, 'Bench ' || g, '', 'none', 0, now()::text, now()::text from generate_series(1, 10) g`.execute(
    ctx.db,
  );
  const customers = Math.ceil(LICENCES / 10);
  await sql`insert into customers (name, customer_key, self_service, created_at, updated_at)
    select 'Customer ' || g, 'bench-' || g, 0, now()::text, now()::text from generate_series(1, ${customers}) g`.execute(
    ctx.db,
  );
  await sql`insert into licences (customer_id, product_key, has_entity_resolution, access_level, start_date, end_date, data, download_secret, created_at, updated_at)
    select c.id, 'bench-' || g, 0, 'stable', ${addDays(today, -365)}, (${today}::date + (((c.id::bigint * 10 + g) * 7919) % 1460)::int)::text, '{}', md5(g::text || c.id::text), now()::text, now()::text
    from customers c cross join generate_series(1, 10) g where c.customer_key like 'bench-%'`.execute(ctx.db);
  await sql`analyze`.execute(ctx.db);
  let begin = performance.now();
  const firstRun = await queueExpiryNotices(ctx, jobActor('bench'), today);
  const first = (performance.now() - begin) / 1000;
  begin = performance.now();
  await queueExpiryNotices(ctx, jobActor('bench'), addDays(today, 1));
  const next = (performance.now() - begin) / 1000;
  await ctx.mail.close();
  await database.close();
  return { first, next, told: firstRun.expiresSoon + firstRun.expired };
}

const passwordReset = (i: number) => ({
  to: `bench-${i}@example.com`,
  template: 'passwordReset' as const,
  locale: 'en' as const,
  data: { fullName: 'Bench', link: 'http://portal.test/en/reset-password/x', validityHours: 1 },
});

/** The portal as main.ts builds it, background work running, in a process of its own (bench/api-server.ts). */
function portalProcess(env: Record<string, string>) {
  const envFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-jobs-')), 'env.json');
  fs.writeFileSync(envFile, JSON.stringify(env));
  return startServer(['portal-jobs', envFile], { profileDir: values.profile });
}

/**
 * The p99 of `url` as a load generator of its own measures it: autocannon in a child process. In
 * this process it shared its event loop with the SMTP peer, so while mails drained it read the
 * peer's work as the portal's latency.
 */
async function p99(url: string, cookie: string): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      path.join(path.dirname(require.resolve('autocannon')), 'autocannon.js'),
      '--json',
      '--connections',
      '10',
      '--duration',
      String(SECONDS),
      '--headers',
      `cookie=${cookie}`,
      url,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  const result = JSON.parse(out) as { non2xx: number; errors: number; latency: { p99: number } };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} not 2xx, ${result.errors} errors`);
  return result.latency.p99;
}

/**
 * The API's p99 with the portal idle, then while it delivers DRAIN mails queued at once (one
 * transaction, so the whole backlog is there when the measure starts). The SMTP peer and the load
 * generator share this process; the portal runs alone in its own.
 */
async function apiWhileDraining(url: string) {
  const peer = await smtpPeer();
  const env = environment(url, peer.url);
  const seeding = await buildApp(loadConfig(env), { startBackgroundWork: false });
  const customer = await createCustomer(seeding.ctx.db, { name: 'Bench Drain' });
  const user = await createUser(seeding.ctx.db, { type: 'client', fullName: 'Bench Reader' });
  await addMembership(seeding.ctx.db, user.id, customer.id, 'businessOwner');
  const cookie = await login(seeding, user.email);
  await seeding.ctx.db.deleteFrom('mailOutbox').execute();
  await seeding.close();
  const portal = await portalProcess(env);
  try {
    const route = `http://127.0.0.1:${portal.port}/api/auth/me`;
    await p99(route, cookie); // warm-up
    const idle = await p99(route, cookie);
    const { ctx, database } = node(url, peer.url);
    await ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < DRAIN; i++) await ctx.mail.send(passwordReset(i), trx);
    });
    // the portal's runner polls every 2 s: measure once delivery has begun
    while (peer.received() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = peer.received();
    const draining = await p99(route, cookie);
    const during = peer.received() - before;
    await ctx.mail.close();
    await database.close();
    return { idle, draining, during, stillQueued: DRAIN - peer.received() };
  } finally {
    portal.child.kill('SIGINT');
    await new Promise((resolve) => portal.child.once('exit', resolve));
    await peer.close();
  }
}

const scratch = await scratchPostgres(adminUrl, 'bench_jobs');
try {
  const migrated = openDatabase(scratch.url);
  await migrateToLatest(migrated);
  await migrated.close();
  const one = await mailsPerSecond(scratch.url, 1);
  const two = await mailsPerSecond(scratch.url, 2);
  const api = await apiWhileDraining(scratch.url);
  const expiry = await expiryRun(scratch.url);
  console.log(`\nBackground work on PostgreSQL (${MAILS} mails, ${LICENCES.toLocaleString('en')} licences)\n`);
  console.log('| measure | value | budget |');
  console.log('| --- | --- | --- |');
  console.log(`| mails delivered per second, one node | ${one.toFixed(0)} | >= 200 |`);
  console.log(`| mails delivered per second, two nodes | ${two.toFixed(0)} | >= 200 |`);
  console.log(`| daily end run, first (${expiry.told} licences told) | ${expiry.first.toFixed(2)} s | < 10 s |`);
  console.log(`| daily end run, the next day | ${expiry.next.toFixed(2)} s | < 10 s |`);
  console.log(
    `\nThe API while ${DRAIN.toLocaleString('en')} mails drain (GET /api/auth/me, 10 connections, ${SECONDS} s each)\n`,
  );
  console.log('| portal | p99 | ratio to idle | mails delivered meanwhile |');
  console.log('| --- | ---: | ---: | ---: |');
  console.log(`| idle | ${api.idle} ms | 1.00x | 0 |`);
  console.log(
    `| delivering mails | ${api.draining} ms | ${(api.draining / Math.max(api.idle, 1)).toFixed(2)}x (budget <= 2x) | ${api.during} (${api.stillQueued} still queued at the end) |`,
  );
} finally {
  await scratch.drop();
}
