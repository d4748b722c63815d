import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, start, type Started, waitForHealth } from '../test/main-process';

/**
 * The portal lives through a PostgreSQL restart or outage. The database is a PostgreSQL server this
 * test starts itself (initdb on a free port), so stopping it disturbs no other test; the portal is
 * server/main.ts in a process of its own, as an operator runs it. This file runs in the PostgreSQL
 * pass of the API tests only (vitest.config.ts): it needs PostgreSQL's server programs.
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
    portal = start({
      PORT: String(port),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres`,
      STATIC_DIR: path.join(workDir, 'no-client'),
      DATA_DIR: workDir,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
    });
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
    await within(10_000, async () => (await health(port)) === 200);
    expect((await signIn(port)).status).toBe(401);
    expect(alive(), portal.output()).toBe(true);

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
    expect(portal.output()).not.toMatch(/unhandled error/);
  }, 120_000);
});
