/**
 * Background work benchmark (decision 063), on PostgreSQL:
 * - mails delivered per second through the outbox to a local SMTP peer (smtp-server), with one app
 *   node and with two (two contexts with pools of their own on one database), side by side;
 * - the daily licence end run (queueExpiryNotices) over a large licence table: its first run (which
 *   tells of every licence in its last 3 months) and the run of the next day (the steady state).
 * Budgets (issue: notifications): at least 200 mails per second; the daily run under 10 s at 1M licences.
 *
 * Run: npm run bench:jobs [-- --mails 2000 --licences 1000000]
 * Needs TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres): a scratch database is
 * created and dropped.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { addDays, utcToday } from '../common/licence-status';
import { jobActor } from '../server/actor';
import { loadConfig } from '../server/config';
import { type AppContext, createContext } from '../server/context';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../server/db';
import { queueExpiryNotices } from '../server/modules/notifications/expiry';
import { scratchPostgres } from '../server/test/scratch-postgres';

const { values } = parseArgs({
  options: { mails: { type: 'string', default: '2000' }, licences: { type: 'string', default: '1000000' } },
});
const MAILS = Number(values.mails);
const LICENCES = Number(values.licences);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function node(url: string, smtpUrl: string): { ctx: AppContext; database: DatabaseHandle } {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    BASE_URL: 'http://portal.test',
    DATABASE_URL: url,
    SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0',
    SMTP_URL: smtpUrl,
  });
  const database = openDatabase(url);
  return { ctx: createContext({ config, database, log: silent }), database };
}

async function mailsPerSecond(url: string, nodes: number): Promise<number> {
  const peer = await smtpPeer();
  const started = Array.from({ length: nodes }, () => node(url, peer.url));
  const [first] = started;
  await first.ctx.db.deleteFrom('mailOutbox').execute();
  for (const { ctx } of started) await ctx.jobs.prepare();
  for (let i = 0; i < MAILS; i++) {
    await first.ctx.mail.send({
      to: `bench-${i}@example.com`,
      template: 'passwordReset',
      locale: 'en',
      data: { fullName: 'Bench', link: 'http://portal.test/en/reset-password/x', validityHours: 1 },
    });
  }
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
    select c.id, 'bench-' || g, 0, 'stable', ${addDays(today, -365)}, (${today}::date + (((c.id * 10 + g) * 7919) % 1460))::text, '{}', md5(g::text || c.id::text), now()::text, now()::text
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

const scratch = await scratchPostgres(adminUrl, 'bench_jobs');
try {
  const migrated = openDatabase(scratch.url);
  await migrateToLatest(migrated);
  await migrated.close();
  const one = await mailsPerSecond(scratch.url, 1);
  const two = await mailsPerSecond(scratch.url, 2);
  const expiry = await expiryRun(scratch.url);
  console.log(`\nBackground work on PostgreSQL (${MAILS} mails, ${LICENCES.toLocaleString('en')} licences)\n`);
  console.log('| measure | value | budget |');
  console.log('| --- | --- | --- |');
  console.log(`| mails delivered per second, one node | ${one.toFixed(0)} | >= 200 |`);
  console.log(`| mails delivered per second, two nodes | ${two.toFixed(0)} | >= 200 |`);
  console.log(`| daily end run, first (${expiry.told} licences told) | ${expiry.first.toFixed(2)} s | < 10 s |`);
  console.log(`| daily end run, the next day | ${expiry.next.toFixed(2)} s | < 10 s |`);
} finally {
  await scratch.drop();
}
