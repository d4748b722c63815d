import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createContext } from '../compose';
import type { AppContext } from '../context';
import { freePort, start, type Started, waitForHealth } from '../test/main-process';
import { SmtpPeer } from '../test/smtp-peer';
import { openDatabase, type DatabaseHandle } from '.';

/**
 * The portal lives through a PostgreSQL restart or outage. The database is a PostgreSQL server this
 * test starts itself (initdb on a free port), so stopping it disturbs no other test; the portal is
 * the built server (built once for the run) in a process of its own, as an operator runs it. This file runs in the PostgreSQL
 * pass of the API tests only (vitest.config.ts): it needs PostgreSQL's server programs. Background work
 * lives through it too: a mail queued before the outage and due during it is delivered once the
 * database is back, by the same portal process, with no one restarting anything.
 */

/** The folder of initdb, pg_ctl and postgres: `pg_config --bindir`, or Debian's versioned folder. */
function postgresBin(): string {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // no pg_config on the PATH
  }
  const debian = '/usr/lib/postgresql';
  const versions = fs.existsSync(debian) ? fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const dir = path.join(debian, version, 'bin');
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error('PostgreSQL server programs (initdb, pg_ctl) not found: install Debian package postgresql');
}

/** PostgreSQL refuses to run as root: as root, its programs run as the postgres user. */
const asRoot = process.getuid?.() === 0;

function pg(bin: string, program: string, args: string[]): void {
  const command = path.join(bin, program);
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

let bin: string;
let dataDir: string;
let workDir: string;
let pgPort: number;
let portal: Started | null = null;
let peer: SmtpPeer | null = null;
let queuer: DatabaseHandle | null = null;

const pgCtl = (...args: string[]) =>
  pg(bin, 'pg_ctl', [
    '-D',
    dataDir,
    '-w',
    '-t',
    '30',
    '-l',
    path.join(dataDir, 'server.log'),
    '-o',
    `-p ${pgPort} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    ...args,
  ]);

beforeAll(() => {
  bin = postgresBin();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-outage-'));
  dataDir = path.join(workDir, 'pg');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    fs.chownSync(dataDir, uid, gid);
    fs.chmodSync(workDir, 0o755);
  }
  pg(bin, 'initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
}, 60_000);

afterAll(async () => {
  portal?.child.kill('SIGKILL');
  await portal?.exited;
  await queuer?.close().catch(() => {});
  await peer?.close();
  try {
    pgCtl('stop', '-m', 'immediate');
  } catch {
    // already stopped
  }
  fs.rmSync(workDir, { recursive: true, force: true });
});

async function health(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(10_000) });
  return response.status;
}

async function signIn(port: number): Promise<{ status: number; body: { error?: { code: string } } }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'Not-The-Password-1!' }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
}

/** Polls `check` until it holds, for at most `ms`; answers how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not within ${ms} ms`);
}

describe('a PostgreSQL restart or outage', () => {
  it('is waited for at start, answered 503 meanwhile, and lived through', async () => {
    pgPort = await freePort();
    const port = await freePort();
    peer = new SmtpPeer();
    const env = {
      PORT: String(port),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
      STATIC_DIR: path.join(workDir, 'no-client'),
      DATA_DIR: workDir,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      SMTP_URL: await peer.listen(),
      // the portal and the process queuing the mail below share the secret that seals its body
      SESSION_SECRET: 'outage-test-session-secret-long-enough-0',
    };
    portal = start(env);
    const alive = () => portal!.child.exitCode === null && portal!.child.signalCode === null;

    // 1. Started while the database is down: the portal waits and retries instead of exiting.
    await within(15_000, async () => portal!.output().includes('Database unreachable'));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(alive(), portal.output()).toBe(true);
    pgCtl('start');
    await waitForHealth(port, portal);
    expect((await signIn(port)).status).toBe(401);

    // 2. A quick restart, with the pool's connections idle: they fail while nobody uses them.
    pgCtl('restart', '-m', 'fast');
    // (a machine busy with other work restarts PostgreSQL slowly: the bound is generous, the log says why)
    await within(15_000, async () => (await health(port)) === 200).catch((error) => {
      throw new Error(`${error}; the portal's log:\n${portal!.output().slice(-3000)}`);
    });
    expect((await signIn(port)).status).toBe(401);
    expect(alive(), portal.output()).toBe(true);

    // Another process of the same portal (as the command line is) queues a mail due in a few seconds:
    // it falls due while the database is down.
    const config = loadConfig({ ...env, NODE_ENV: 'test' });
    queuer = openDatabase(config.databaseUrl);
    const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as AppContext['log'];
    const ctx = createContext({ config, database: queuer, log: silent });
    await ctx.jobs.prepare();
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.mail.send(
        {
          to: 'during-outage@example.com',
          template: 'passwordReset',
          locale: 'en',
          data: { fullName: 'Outage', link: 'http://portal.test/en/reset-password/x', validityHours: 1 },
        },
        trx,
      );
      // the mail's job waits 3 s (the portal's runner looks every 2 s): due while the database is down
      await sql`update pgboss.job set start_after = now() + interval '3 seconds' where name = 'mail.deliver'`.execute(
        trx,
      );
    });
    await ctx.mail.close();
    await queuer.close();
    queuer = null;
    expect(peer.received).toHaveLength(0);

    // 3. An outage: requests get the one error body with 503, health says 503.
    pgCtl('stop', '-m', 'fast');
    expect(await health(port)).toBe(503);
    const refused = await signIn(port);
    expect(refused.status).toBe(503);
    expect(refused.body.error?.code).toBe('service_unavailable');
    expect(alive(), portal.output()).toBe(true);

    // 4. The database is back: service resumes by itself within seconds.
    pgCtl('start');
    const tookMs = await within(10_000, async () => (await health(port)) === 200);
    expect(tookMs).toBeLessThan(10_000);
    expect((await signIn(port)).status).toBe(401);
    expect(alive(), portal.output()).toBe(true);
    // background work resumed by itself: the mail that fell due during the outage is delivered, once
    await within(30_000, async () => peer!.received.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(peer.received).toHaveLength(1);
    expect(peer.received[0]).toMatch(/^To: during-outage@example\.com\r?$/m);
    expect(portal.output()).not.toMatch(/unhandled error/);
  }, 120_000);
});
