import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../server/db';
import { buildServer } from '../scripts/build-server.mjs';

/**
 * The built portal (`node dist-server/server/main.js`, as production runs it) started on a seeded
 * database of bench/scale.ts with its job runner on: on its first start every schedule runs at once,
 * so the daily licence end run tells of the licences ending in the next three months (about 52,000
 * at 100k customers) and queues a job per licence. Measured: the time from the start to the first
 * answer of `GET /api/health`, the latency of `GET /api/health` until the daily run has queued its
 * jobs, then for a few seconds while those jobs wait and run (decision 089).
 */
const root = path.resolve(import.meta.dirname, '..');
/** How long a start may take before the portal counts as not answering. */
const START_LIMIT_MS = 180_000;
/** A health request that takes longer than this counts as unanswered (and is its latency). */
const REQUEST_LIMIT_MS = 30_000;
/** How long the daily licence end run may take to queue its jobs before the measure goes on anyway. */
const RUN_LIMIT_MS = 300_000;
const DAILY_RUN = 'notifications.licenceExpiry';

export interface PortalReading {
  /** ms from the spawn to the first 200 of /api/health; null: none within START_LIMIT_MS */
  startMs: number | null;
  /** latencies of /api/health from the first answer until the daily run has queued its jobs, sorted */
  duringRun: number[];
  /** ms from the first answer until the daily run was done; null: not within RUN_LIMIT_MS */
  runMs: number | null;
  /** latencies of /api/health over the measure after it, in ms, sorted */
  latencies: number[];
  /** jobs waiting or running when the measure began and when it ended, and jobs finished meanwhile */
  queuedBefore: number;
  queuedAfter: number;
  finished: number;
}

let built: { dir: string; main: string } | null = null;

/** Builds the server once per run, into a folder of its own (the checkout's dist-server is left alone). */
async function builtPortal(): Promise<string> {
  if (!built) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-scale-'));
    const out = path.join(dir, 'dist-server');
    await buildServer(out);
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(out, 'node_modules'), 'dir');
    built = { dir, main: path.join(out, 'server', 'main.js') };
  }
  return built.main;
}

export function disposeBuiltPortal(): void {
  if (built) fs.rmSync(built.dir, { recursive: true, force: true });
  built = null;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One GET /api/health: its latency in ms, or null when it failed (not listening yet, not 200). */
async function health(port: number): Promise<number | null> {
  const began = performance.now();
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
      signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
    });
    await response.text();
    return response.status === 200 ? performance.now() - began : null;
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') return REQUEST_LIMIT_MS;
    return null;
  }
}

/**
 * Background jobs waiting (or running) and finished, as the store of that database keeps them, and
 * whether the daily run is done.
 */
async function jobCounts(handle: DatabaseHandle): Promise<{ queued: number; finished: number; ran: boolean }> {
  type Counts = { queued: number; finished: number; ran: number };
  const { rows } =
    handle.dialect === 'postgres'
      ? await sql<Counts>`
          select count(*) filter (where state in ('created', 'retry', 'active')) as queued,
                 count(*) filter (where state in ('completed', 'failed')) as finished,
                 count(*) filter (where name = ${DAILY_RUN} and state = 'completed') as ran
          from pgboss.job`
          .execute(handle.db)
          // pg-boss's schema is made by the portal's first start
          .catch(() => ({ rows: [{ queued: 0, finished: 0, ran: 0 }] }))
      : await sql<Counts>`
          select coalesce(sum(state in ('created', 'retry', 'active')), 0) as queued,
                 coalesce(sum(state in ('completed', 'failed')), 0) as finished,
                 coalesce(sum(name = ${DAILY_RUN} and state = 'completed'), 0) as ran
          from jobs`.execute(handle.db);
  return { queued: Number(rows[0].queued), finished: Number(rows[0].finished), ran: Number(rows[0].ran) > 0 };
}

/** Starts the built portal on `databaseUrl` (the database `handle` opens too) and measures it. */
export async function measurePortal(
  handle: DatabaseHandle,
  databaseUrl: string,
  seconds: number,
): Promise<PortalReading> {
  const main = await builtPortal();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-scale-data-'));
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-client'),
    SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    // nothing listens there: each mail's attempt fails at once and is retried later, as with an SMTP
    // relay that is down
    SMTP_URL: 'smtp://127.0.0.1:9',
    PAYMENT_TEST_CHECKOUT: 'true',
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: 'fatal',
  };
  const began = performance.now();
  const child: ChildProcess = spawn(process.execPath, [main], { cwd: root, env, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    let startMs: number | null = null;
    while (startMs === null && performance.now() - began < START_LIMIT_MS) {
      if (child.exitCode !== null) throw new Error(`the built portal exited with ${child.exitCode}`);
      if ((await health(port)) !== null) startMs = performance.now() - began;
      else await sleep(20);
    }
    // while the daily run reads the licences and queues a job per licence it tells of
    const duringRun: number[] = [];
    const answered = performance.now();
    let runMs: number | null = null;
    while (startMs !== null && runMs === null && performance.now() - answered < RUN_LIMIT_MS) {
      duringRun.push((await health(port)) ?? REQUEST_LIMIT_MS);
      if ((await jobCounts(handle)).ran) runMs = performance.now() - answered;
      else await sleep(10);
    }
    duringRun.sort((a, b) => a - b);
    // then while those jobs run
    const before = await jobCounts(handle);
    const latencies: number[] = [];
    const end = performance.now() + seconds * 1000;
    // one request at a time, as a load balancer's health check or a person clicking does
    while (startMs !== null && performance.now() < end) {
      latencies.push((await health(port)) ?? REQUEST_LIMIT_MS);
      await sleep(10);
    }
    const after = await jobCounts(handle);
    latencies.sort((a, b) => a - b);
    return {
      startMs,
      duringRun,
      runMs,
      latencies,
      queuedBefore: before.queued,
      queuedAfter: after.queued,
      finished: after.finished - before.finished,
    };
  } finally {
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killer);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
