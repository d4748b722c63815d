/**
 * Download benchmark (DESIGN.md section 6): one artifact (1 GiB by default) fetched by 1, 4 and 16
 * concurrent clients from
 *   - nginx serving the stored file directly (the reference),
 *   - the portal's download route streaming it (the licence's secret URL, as scripts use it),
 *   - the portal authorising and nginx sending the bytes (X-Accel-Redirect, DOWNLOAD_ACCEL_REDIRECT),
 * side by side in one table: throughput, ratio to nginx, the portal's peak memory, and the latency
 * of a signed-in API call (GET /api/auth/me) while idle, during the downloads, and during the
 * downloads with 8 logins running. Goals: streaming at least 0.5 of nginx, X-Accel at least 0.9,
 * memory that does not grow with the file or the clients, API p99 during downloads at most 2x idle.
 *
 * Clients are curl processes (as scripts would fetch), so the client side costs the same for every
 * server. The portal runs as its own process (server/main.ts) on a SQLite database prepared here.
 *
 * Run: npm run bench:download [-- --size-mb 1024 --clients 1,4,16]
 * Needs nginx (Debian package `nginx`) and curl.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { secretDownloadPath } from '../common/api/catalogue';
import { migrateToLatest, openDatabase } from '../server/db';
import { createLocalStorage } from '../server/integrations/storage/local';
import { insertArtifact, insertProduct, insertVersion } from '../server/modules/catalogue/repo';
import { addMembership, createCustomer, createLicence, createUser, TEST_PASSWORD } from '../server/test/factories';

const { values } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '1024' },
    clients: { type: 'string', default: '1,4,16' },
    'api-samples': { type: 'string', default: '200' },
  },
});
const SIZE = Number(values['size-mb']) * 1024 * 1024;
const CLIENTS = values.clients.split(',').map(Number);
const API_SAMPLES = Number(values['api-samples']);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const ACCEL_PREFIX = '/protected-artifacts/';

function which(binary: string): string | null {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', '/sbin', '/bin']) {
    const file = path.join(dir, binary);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitFor(url: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

/** A file of SIZE bytes: one random mebibyte repeated (the content does not matter, only its length). */
function writeArtifact(file: string) {
  const block = crypto.randomBytes(1024 * 1024);
  const fd = fs.openSync(file, 'w');
  try {
    let written = 0;
    while (written < SIZE) {
      const length = Math.min(block.length, SIZE - written);
      fs.writeSync(fd, block, 0, length);
      written += length;
    }
  } finally {
    fs.closeSync(fd);
  }
}

interface Fixture {
  databaseUrl: string;
  artifactsDir: string;
  secretPath: string;
  storageKey: string;
  email: string;
}

/** The portal's database: a customer with a stable licence, a published version with a generic artifact. */
async function prepare(dir: string): Promise<Fixture> {
  const databaseUrl = `sqlite:${path.join(dir, 'portal.db')}`;
  const artifactsDir = path.join(dir, 'artifacts');
  const database = openDatabase(databaseUrl);
  try {
    await migrateToLatest(database);
    const db = database.db;
    const productKey = 'bench-product';
    await insertProduct(db, {
      key: productKey,
      name: 'Bench product',
      description: '',
      customizationType: 'none',
      isSaas: 0,
    });
    const semVer = '1.0.0';
    const version = await insertVersion(db, {
      productKey,
      title: 'Bench 1.0.0',
      type: 'stable',
      semVer,
      description: 'Benchmark',
      releaseDate: new Date().toISOString().slice(0, 10),
      published: 1,
    });
    const storageKey = `${productKey}/${version.id}/generic/${crypto.randomUUID()}`;
    const source = path.join(dir, 'source.bin');
    writeArtifact(source);
    const storage = createLocalStorage(artifactsDir);
    const stored = await storage.put(storageKey, fs.createReadStream(source), { maxBytes: SIZE });
    fs.rmSync(source);
    await insertArtifact(db, {
      versionId: version.id,
      platform: 'generic',
      fileName: 'bench.bin',
      storageKey,
      size: stored.size,
      sha256: stored.sha256,
    });
    const customer = await createCustomer(db, { name: 'Bench customer' });
    const licence = await createLicence(db, customer.id, productKey);
    const row = await db
      .selectFrom('licences')
      .select('downloadSecret')
      .where('id', '=', licence.id)
      .executeTakeFirstOrThrow();
    const user = await createUser(db, { type: 'client', email: 'bench@example.com' });
    await addMembership(db, user.id, customer.id, 'technicalContact');
    return {
      databaseUrl,
      artifactsDir,
      secretPath: secretDownloadPath('generic', productKey, semVer, row.downloadSecret),
      storageKey,
      email: user.email,
    };
  } finally {
    await database.close();
  }
}

interface Portal {
  process: ChildProcess;
  port: number;
}

async function startPortal(fixture: Fixture, dir: string, extraEnv: Record<string, string>): Promise<Portal> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: fixture.databaseUrl,
      DATA_DIR: dir,
      ARTIFACTS_DIR: fixture.artifactsDir,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_LOGIN_PER_MINUTE: '0',
      SESSION_SECRET: 'bench-session-secret-bench-session-secret',
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  return { process: child, port };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function startNginx(dir: string, fixture: Fixture, port: number, portalPort: number): ChildProcess {
  const nginx = which('nginx');
  if (!nginx) throw new Error('nginx is not installed (apt-get install -y nginx)');
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes ${os.cpus().length};
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  server {
    listen 127.0.0.1:${port};
    location /files/ { alias ${fixture.artifactsDir}/; }
    location ${ACCEL_PREFIX} { internal; alias ${fixture.artifactsDir}/; }
    location /api/ {
      proxy_pass http://127.0.0.1:${portalPort};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_buffering off;
    }
  }
}
`,
  );
  return spawn(nginx, ['-c', conf, '-p', dir, '-e', `${dir}/nginx-error.log`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return null;
  }
}

/** Peak resident memory of a process while `during` runs, sampled every 50 ms from /proc. */
async function peakRss<T>(pid: number | undefined, during: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = 0;
  const sample = () => {
    if (!pid) return;
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      // the process is gone
    }
  };
  sample();
  const timer = setInterval(sample, 50);
  try {
    const result = await during();
    sample();
    return { result, peakMb: peak };
  } finally {
    clearInterval(timer);
  }
}

/** N curl processes fetching the URL at once; MB/s over the whole transfer (all bytes / wall time). */
async function download(url: string, clients: number): Promise<number> {
  const started = performance.now();
  const results = await Promise.all(
    Array.from(
      { length: clients },
      () =>
        new Promise<number>((resolve, reject) => {
          const curl = spawn('curl', ['-sS', '-fL', '-o', '/dev/null', '-w', '%{size_download}', url]);
          let out = '';
          curl.stdout.on('data', (chunk) => (out += chunk));
          // 'close', not 'exit': the output may still be on its way when the process exits
          curl.on('close', (code) =>
            code === 0 ? resolve(Number(out)) : reject(new Error(`curl ${url}: exit ${code}`)),
          );
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const bytes of results) if (bytes !== SIZE) throw new Error(`${url}: ${bytes} bytes, expected ${SIZE}`);
  return (clients * SIZE) / 1024 / 1024 / seconds;
}

async function signIn(port: number, email: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: TEST_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`login: ${response.status} ${await response.text()}`);
  const cookie = response.headers.get('set-cookie');
  if (!cookie) throw new Error('login: no cookie');
  return cookie.split(';')[0];
}

function spawnCurl(args: string[]) {
  const result = spawnSync('curl', args);
  if (result.status !== 0) throw new Error(`curl ${args.join(' ')}: exit ${result.status}`);
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** p99 of GET /api/auth/me, one call after the other, until `samples` calls or `until` settles. */
async function apiP99(port: number, cookie: string, until?: Promise<unknown>): Promise<number> {
  const times: number[] = [];
  let done = false;
  void until?.finally(() => (done = true));
  while (until ? !done || times.length < 20 : times.length < API_SAMPLES) {
    const t0 = performance.now();
    const response = await fetch(`http://127.0.0.1:${port}/api/auth/me`, { headers: { cookie } });
    await response.arrayBuffer();
    times.push(performance.now() - t0);
    if (response.status !== 200) throw new Error(`/api/auth/me: ${response.status}`);
    if (!until && times.length >= API_SAMPLES) break;
  }
  times.sort((a, b) => a - b);
  return percentile(times, 99);
}

/** 8 logins at a time, over and over, until `stopped` says so. */
function loginLoad(port: number, email: string, stopped: () => boolean): Promise<number> {
  let count = 0;
  const worker = async () => {
    while (!stopped()) {
      await signIn(port, email);
      count++;
    }
  };
  return Promise.all(Array.from({ length: 8 }, worker)).then(() => count);
}

interface Row {
  server: string;
  clients: number;
  mbPerSecond: number;
  ratio: number | null;
  peakMb: number | null;
  /** the portal's resident memory just before the downloads */
  idleMb?: number | null;
  p99Idle: number | null;
  p99During: number | null;
  p99Logins: number | null;
}

async function main() {
  if (!which('curl')) throw new Error('curl is not installed');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-download-'));
  // nginx's workers run as an unprivileged user: they must be able to read the files
  fs.chmodSync(dir, 0o755);
  const processes: ChildProcess[] = [];
  process.on('exit', () => {
    for (const child of processes) if (child.exitCode === null) child.kill('SIGKILL');
  });
  try {
    console.log(`Preparing a ${SIZE / 1024 / 1024} MiB artifact in ${dir}…`);
    const fixture = await prepare(dir);
    const streaming = await startPortal(fixture, dir, {});
    processes.push(streaming.process);
    const accel = await startPortal(fixture, dir, { DOWNLOAD_ACCEL_REDIRECT: ACCEL_PREFIX });
    processes.push(accel.process);
    const nginxPort = await freePort();
    processes.push(startNginx(dir, fixture, nginxPort, accel.port));
    await waitFor(`http://127.0.0.1:${nginxPort}/files/`);

    const targets = [
      { server: 'nginx (static file)', url: `http://127.0.0.1:${nginxPort}/files/${fixture.storageKey}`, portal: null },
      {
        server: 'portal (streamed)',
        url: `http://127.0.0.1:${streaming.port}${fixture.secretPath}`,
        portal: streaming,
      },
      {
        server: 'portal + nginx (X-Accel-Redirect)',
        url: `http://127.0.0.1:${nginxPort}${fixture.secretPath}`,
        portal: accel,
      },
    ];
    const cookies = new Map<number, string>();
    for (const portal of [streaming, accel]) cookies.set(portal.port, await signIn(portal.port, fixture.email));

    // warm-up: the first requests compile the routes' code; measured requests should not pay for it
    for (const target of targets) {
      spawnCurl(['-sS', '-fL', '-r', '0-1048575', '-o', '/dev/null', target.url]);
    }
    for (const portal of [streaming, accel]) await apiP99(portal.port, cookies.get(portal.port)!);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const rows: Row[] = [];
    for (const clients of CLIENTS) {
      // nginx is measured right before each portal mode (its row shows the mean), so a drift of the
      // machine weighs on both sides of a ratio
      const references: number[] = [];
      const nginxRow: Row = {
        server: targets[0].server,
        clients,
        mbPerSecond: 0,
        ratio: 1,
        peakMb: null,
        p99Idle: null,
        p99During: null,
        p99Logins: null,
      };
      rows.push(nginxRow);
      for (const target of targets.slice(1)) {
        const portal = target.portal!;
        const reference = await download(targets[0].url, clients);
        references.push(reference);
        nginxRow.mbPerSecond = references.reduce((a, b) => a + b, 0) / references.length;
        const cookie = cookies.get(portal.port)!;
        const p99Idle = await apiP99(portal.port, cookie);
        const idleMb = rssMb(portal.process.pid);
        // throughput and memory of the downloads alone (the API sampler would take CPU from them)
        const { result: mbPerSecond, peakMb } = await peakRss(portal.process.pid, () => download(target.url, clients));
        // then the same downloads again with the API sampled, and again with 8 logins running too
        const transfer = download(target.url, clients);
        transfer.catch(() => {}); // awaited below; observed now so a failure cannot end the process unhandled
        const p99During = await apiP99(portal.port, cookie, transfer);
        await transfer;
        let stopped = false;
        const logins = loginLoad(portal.port, fixture.email, () => stopped);
        const second = download(target.url, clients);
        second.catch(() => {});
        const p99Logins = await apiP99(portal.port, cookie, second);
        await second;
        stopped = true;
        await logins;
        const result = { mbPerSecond, p99During, p99Logins };
        rows.push({
          server: target.server,
          clients,
          mbPerSecond: result.mbPerSecond,
          ratio: result.mbPerSecond / reference,
          peakMb,
          p99Idle,
          p99During: result.p99During,
          p99Logins: result.p99Logins,
          idleMb,
        });
      }
    }
    print(rows);
  } finally {
    for (const child of processes.reverse()) await stop(child);
    if (!process.env.BENCH_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function print(rows: Row[]) {
  const f = (value: number | null, digits = 1) => (value === null ? '' : value.toFixed(digits));
  const goal = (row: Row) => {
    if (row.ratio === null || row.server.startsWith('nginx')) return '';
    const wanted = row.server.includes('X-Accel') ? 0.9 : 0.5;
    const ratioOk = row.ratio >= wanted;
    const p99Ok = row.p99Idle !== null && row.p99During !== null && row.p99During <= 2 * row.p99Idle;
    return `${ratioOk ? 'ok' : 'MISSED'} (>= ${wanted}); p99 ${p99Ok ? 'ok' : 'MISSED'}`;
  };
  console.log('');
  console.log(`Artifact ${SIZE / 1024 / 1024} MiB; ${os.cpus().length} cores; API call: GET /api/auth/me`);
  console.log('');
  console.log(
    '| server | clients | MB/s | ratio to nginx | portal RSS before MB | portal peak RSS MB | API p99 idle ms | p99 during ms | p99 during + 8 logins ms | goal |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const row of rows) {
    console.log(
      `| ${row.server} | ${row.clients} | ${f(row.mbPerSecond, 0)} | ${f(row.ratio, 2)} | ${f(row.idleMb ?? null, 0)} | ${f(row.peakMb, 0)} | ${f(row.p99Idle)} | ${f(row.p99During)} | ${f(row.p99Logins)} | ${goal(row)} |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
