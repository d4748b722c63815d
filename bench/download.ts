/**
 * Download benchmark (DESIGN.md section 6): one artifact (1 GiB by default) fetched by concurrent
 * clients from
 *   - nginx serving the stored file directly (the reference),
 *   - the portal's download route streaming it (the licence's secret URL, as scripts use it),
 *   - the portal authorising and nginx sending the bytes (X-Accel-Redirect, DOWNLOAD_ACCEL_REDIRECT),
 * over loopback at full speed (1, 4 and 16 clients) and as over a real network, each client limited
 * to 1 Gbit/s or 100 Mbit/s (4 and 16 clients): then the machine is no longer saturated by loopback
 * copies and what remains is the portal's own cost. One table: throughput, ratio to nginx, the
 * portal's memory, the p50 and p99 of a signed-in API call (GET /api/auth/me) idle, during the
 * downloads and during the downloads with 8 logins running, and the portal's event loop delay
 * (bench/event-loop-probe.ts). Goals: streaming at least 0.5 of nginx, X-Accel at least 0.9, memory
 * that does not grow with the file or the clients, API p99 during downloads at most 2x idle.
 *
 * The API is sampled one call every 10 ms, up to 1000 calls, the same way idle and during; during
 * the downloads every client downloads back to back from before the first call to after the last
 * (the run fails otherwise). Clients are curl processes (as scripts would fetch), so the client side
 * costs the same for every server. They run at the lowest CPU priority (`nice -n 19`, `--client-nice`):
 * real clients download from other machines, and here they share the server's two cores, so at
 * normal priority their own copying would weigh on the API's latency as if it were the server's. The
 * portal runs as its own process (server/main.ts) on a SQLite database prepared here.
 *
 * Run: npm run bench:download [-- --size-mb 1024 --clients 1,4,16 --rates-mbit 1000,100
 *   --limited-clients 4,16 --modes streamed,x-accel --api-samples 1000 --api-interval-ms 10
 *   --throughput-seconds 8 --client-nice 19]
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
    'api-samples': { type: 'string', default: '1000' },
    'api-interval-ms': { type: 'string', default: '10' },
    'rates-mbit': { type: 'string', default: '1000,100' },
    'limited-clients': { type: 'string', default: '4,16' },
    modes: { type: 'string', default: 'streamed,x-accel' },
    'throughput-seconds': { type: 'string', default: '8' },
    /** the clients' niceness; 0 runs them at the server's priority */
    'client-nice': { type: 'string', default: '19' },
  },
});
const SIZE = Number(values['size-mb']) * 1024 * 1024;
const list = (value: string) => (value ? value.split(',').map(Number) : []);
const CLIENTS = list(values.clients);
const API_SAMPLES = Number(values['api-samples']);
const API_INTERVAL_MS = Number(values['api-interval-ms']);
/** The sampling's longest stretch: the calls' schedule and a fifth more for calls that come late. */
const SAMPLING_SECONDS = (API_SAMPLES * API_INTERVAL_MS * 1.2) / 1000;
const RATES_MBIT = list(values['rates-mbit']);
const LIMITED_CLIENTS = list(values['limited-clients']);
const MODES = values.modes.split(',');
/** How long the clients download, back to back, for a throughput figure without the API sampler. */
const THROUGHPUT_SECONDS = Number(values['throughput-seconds']);
const CLIENT_NICE = Number(values['client-nice']);
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
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', path.join(ROOT, 'bench/event-loop-probe.ts'), path.join(ROOT, 'server/main.ts')],
    {
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
      // the IPC channel answers the event loop's delay (bench/event-loop-probe.ts)
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
  await waitFor(`http://127.0.0.1:${port}/api/health`);
  return { process: child, port };
}

interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** Asks the portal's event loop probe something and waits for its answer. */
function askProbe(portal: Portal, message: 'event-loop:reset' | 'event-loop:read'): Promise<LoopDelay> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the event loop probe did not answer')), 10_000);
    portal.process.once('message', (answer) => {
      clearTimeout(timer);
      resolve(answer as LoopDelay);
    });
    portal.process.send(message);
  });
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
worker_priority 10;
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

interface CurlResult {
  bytes: number;
  code: number | null;
  stderr: string;
}

/** One curl fetching the URL to /dev/null; its byte count is written out even when --max-time cuts it. */
function curl(url: string, extra: string[] = []): Promise<CurlResult> {
  return new Promise((resolve, reject) => {
    const args = ['-sS', '-fL', '-o', '/dev/null', '-w', '%{size_download}', ...extra, url];
    const child = CLIENT_NICE ? spawn('nice', ['-n', String(CLIENT_NICE), 'curl', ...args]) : spawn('curl', args);
    let out = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    // 'close', not 'exit': the output may still be on its way when the process exits
    child.on('close', (code) => resolve({ bytes: Number(out), code, stderr }));
  });
}

interface Transfer {
  mbPerSecond: number;
  /** when the first client stopped: until then every client was downloading */
  ended: number;
}

/**
 * N clients each fetching the file again and again (a new curl as soon as one finishes) for `seconds`,
 * each at most `bytesPerSecond` when given (curl --limit-rate, as over a real link). The last fetch
 * of each client is cut by --max-time at the end of the window.
 */
async function downloadFor(url: string, clients: number, seconds: number, bytesPerSecond?: number): Promise<Transfer> {
  const started = performance.now();
  const until = started + seconds * 1000;
  let bytes = 0;
  let ended = Infinity;
  const client = async () => {
    for (;;) {
      const left = until - performance.now();
      if (left < 50) break;
      const limit = bytesPerSecond ? ['--limit-rate', String(bytesPerSecond)] : [];
      const result = await curl(url, ['--max-time', (left / 1000).toFixed(3), ...limit]);
      // 28: cut by --max-time, the expected end of the last fetch
      if (result.code !== 0 && result.code !== 28) {
        throw new Error(`curl ${url}: exit ${result.code} ${result.stderr}`);
      }
      if (result.code === 0 && result.bytes !== SIZE)
        throw new Error(`${url}: ${result.bytes} bytes, expected ${SIZE}`);
      bytes += result.bytes;
    }
    ended = Math.min(ended, performance.now());
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { mbPerSecond: bytes / 1024 / 1024 / ((performance.now() - started) / 1000), ended };
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Latency {
  samples: number;
  p50: number;
  p99: number;
  /** the portal's event loop delay over the same stretch */
  loop: LoopDelay;
  started: number;
  ended: number;
}

/**
 * GET /api/auth/me, one call at a time, started every API_INTERVAL_MS (or at once after a call that
 * took longer): API_SAMPLES calls, or fewer if the calls are so slow that SAMPLING_SECONDS (or the
 * given end) runs out (the count is printed). The same sampler measures idle and during the downloads.
 */
async function sampleApi(portal: Portal, cookie: string, until?: number): Promise<Latency> {
  await askProbe(portal, 'event-loop:reset');
  const times: number[] = [];
  const started = performance.now();
  const stopAt = until ?? started + SAMPLING_SECONDS * 1000;
  for (let i = 0; i < API_SAMPLES; i++) {
    const wait = started + i * API_INTERVAL_MS - performance.now();
    if (wait > 0) await sleep(wait);
    if (performance.now() >= stopAt) break;
    const t0 = performance.now();
    const response = await fetch(`http://127.0.0.1:${portal.port}/api/auth/me`, { headers: { cookie } });
    await response.arrayBuffer();
    times.push(performance.now() - t0);
    if (response.status !== 200) throw new Error(`/api/auth/me: ${response.status}`);
  }
  const ended = performance.now();
  const loop = await askProbe(portal, 'event-loop:read');
  times.sort((a, b) => a - b);
  return { samples: times.length, p50: percentile(times, 50), p99: percentile(times, 99), loop, started, ended };
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

/** The clients' curl processes start this long before the sampling, and go on this long after it. */
const LEAD_SECONDS = 1;
const TAIL_SECONDS = 1;

/**
 * The API sampled while N clients download for the whole sampling (and with 8 logins running too
 * when asked); fails if the downloads did not last as long as the sampling.
 */
async function sampleDuringDownloads(
  portal: Portal,
  cookie: string,
  url: string,
  clients: number,
  options: { bytesPerSecond?: number; logins?: string } = {},
): Promise<{ latency: Latency; transfer: Transfer }> {
  const started = performance.now();
  const transferred = downloadFor(url, clients, LEAD_SECONDS + SAMPLING_SECONDS + TAIL_SECONDS, options.bytesPerSecond);
  transferred.catch(() => {}); // awaited below; observed now so a failure cannot end the process unhandled
  await sleep(LEAD_SECONDS * 1000);
  let stopped = false;
  const logins = options.logins ? loginLoad(portal.port, options.logins, () => stopped) : null;
  // no call starts in the downloads' last TAIL_SECONDS
  const latency = await sampleApi(portal, cookie, started + (LEAD_SECONDS + SAMPLING_SECONDS) * 1000);
  stopped = true;
  await logins;
  const transfer = await transferred;
  if (latency.ended > transfer.ended) {
    throw new Error(
      `${url}: the downloads ended ${(latency.ended - transfer.ended).toFixed(0)} ms before the sampling`,
    );
  }
  return { latency, transfer };
}

interface Row {
  server: string;
  link: string;
  clients: number;
  mbPerSecond: number;
  ratio: number | null;
  /** the portal's resident memory just before the downloads */
  idleMb?: number | null;
  peakMb: number | null;
  idle: Latency | null;
  during: Latency | null;
  logins: Latency | null;
}

const FULL_SPEED = 'loopback, full speed';
const linkName = (mbit: number) => (mbit >= 1000 ? `${mbit / 1000} Gbit/s` : `${mbit} Mbit/s`) + ' per client';

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

    const nginxUrl = `http://127.0.0.1:${nginxPort}/files/${fixture.storageKey}`;
    const targets = [
      {
        mode: 'streamed',
        server: 'portal (streamed)',
        url: `http://127.0.0.1:${streaming.port}${fixture.secretPath}`,
        portal: streaming,
      },
      {
        mode: 'x-accel',
        server: 'portal + nginx (X-Accel-Redirect)',
        url: `http://127.0.0.1:${nginxPort}${fixture.secretPath}`,
        portal: accel,
      },
    ].filter((target) => MODES.includes(target.mode));
    const cookies = new Map<number, string>();
    for (const portal of [streaming, accel]) cookies.set(portal.port, await signIn(portal.port, fixture.email));

    // warm-up: the first requests compile the routes' code; measured requests should not pay for it
    for (const url of [nginxUrl, ...targets.map((target) => target.url)]) {
      spawnCurl(['-sS', '-fL', '-r', '0-1048575', '-o', '/dev/null', url]);
    }
    for (const portal of [streaming, accel]) await sampleApi(portal, cookies.get(portal.port)!);
    await sleep(1000);

    const rows: Row[] = [];
    const nginxRow = (link: string, clients: number): Row => ({
      server: 'nginx (static file)',
      link,
      clients,
      mbPerSecond: 0,
      ratio: 1,
      peakMb: null,
      idle: null,
      during: null,
      logins: null,
    });
    for (const clients of CLIENTS) {
      // nginx is measured right before each portal mode (its row shows the mean), so a drift of the
      // machine weighs on both sides of a ratio
      const references: number[] = [];
      const reference = nginxRow(FULL_SPEED, clients);
      rows.push(reference);
      for (const target of targets) {
        const { portal } = target;
        const measured = (await downloadFor(nginxUrl, clients, THROUGHPUT_SECONDS)).mbPerSecond;
        references.push(measured);
        reference.mbPerSecond = references.reduce((a, b) => a + b, 0) / references.length;
        const cookie = cookies.get(portal.port)!;
        const idle = await sampleApi(portal, cookie);
        const idleMb = rssMb(portal.process.pid);
        // throughput and memory of the downloads alone (the API sampler would take CPU from them)
        const { result, peakMb } = await peakRss(portal.process.pid, () =>
          downloadFor(target.url, clients, THROUGHPUT_SECONDS),
        );
        const { mbPerSecond } = result;
        // then downloads again for the whole sampling, and again with 8 logins running too
        const during = await sampleDuringDownloads(portal, cookie, target.url, clients);
        const logins = await sampleDuringDownloads(portal, cookie, target.url, clients, { logins: fixture.email });
        console.log(`${target.server}, ${clients} clients at full speed: measured`);
        rows.push({
          server: target.server,
          link: FULL_SPEED,
          clients,
          mbPerSecond,
          ratio: mbPerSecond / measured,
          idleMb,
          peakMb,
          idle,
          during: during.latency,
          logins: logins.latency,
        });
      }
    }

    // As over a real network: each client limited to the link's rate, so loopback copies no longer
    // saturate the machine and what remains is the portal's own cost
    for (const mbit of RATES_MBIT) {
      const bytesPerSecond = (mbit * 1_000_000) / 8;
      for (const clients of LIMITED_CLIENTS) {
        const link = linkName(mbit);
        const reference = nginxRow(link, clients);
        reference.mbPerSecond = (await downloadFor(nginxUrl, clients, THROUGHPUT_SECONDS, bytesPerSecond)).mbPerSecond;
        rows.push(reference);
        for (const target of targets) {
          const { portal } = target;
          const cookie = cookies.get(portal.port)!;
          const idle = await sampleApi(portal, cookie);
          const idleMb = rssMb(portal.process.pid);
          const { result, peakMb } = await peakRss(portal.process.pid, () =>
            sampleDuringDownloads(portal, cookie, target.url, clients, { bytesPerSecond }),
          );
          console.log(`${target.server}, ${clients} clients at ${link}: measured`);
          rows.push({
            server: target.server,
            link,
            clients,
            mbPerSecond: result.transfer.mbPerSecond,
            ratio: result.transfer.mbPerSecond / reference.mbPerSecond,
            idleMb,
            peakMb,
            idle,
            during: result.latency,
            logins: null,
          });
        }
      }
    }
    print(rows, fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '));
  } finally {
    for (const child of processes.reverse()) await stop(child);
    if (!process.env.BENCH_KEEP) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function print(rows: Row[], loadAverage: string) {
  const f = (value: number | null | undefined, digits = 1) =>
    value === null || value === undefined ? '' : value.toFixed(digits);
  const latency = (value: Latency | null) => (value ? `${f(value.p50)} / ${f(value.p99)}` : '');
  const loop = (value: Latency | null) => (value ? `${f(value.loop.p99)} / ${f(value.loop.max)}` : '');
  const samples = (row: Row) =>
    [row.idle, row.during, row.logins]
      .filter((value) => value !== null)
      .map((value) => value.samples)
      .join(' / ');
  const goal = (row: Row) => {
    if (row.ratio === null || row.server.startsWith('nginx')) return '';
    const wanted = row.server.includes('X-Accel') ? 0.9 : 0.5;
    const ratioOk = row.ratio >= wanted;
    const p99Ok = row.idle !== null && row.during !== null && row.during.p99 <= 2 * row.idle.p99;
    return `${ratioOk ? 'ok' : 'MISSED'} (>= ${wanted}); p99 ${p99Ok ? 'ok' : 'MISSED'}`;
  };
  console.log('');
  console.log(
    `Artifact ${SIZE / 1024 / 1024} MiB; ${os.cpus().length} cores; load average at the end ${loadAverage}; ` +
      `API call: GET /api/auth/me, one every ${API_INTERVAL_MS} ms, up to ${API_SAMPLES} calls; ` +
      `clients at niceness ${CLIENT_NICE}`,
  );
  console.log('');
  console.log(
    "| server | clients' link | clients | MB/s | ratio to nginx | portal RSS before MB | portal peak RSS MB | API p50 / p99 idle ms | during downloads | during + 8 logins | event loop delay p99 / max during ms | API calls measured | goal |",
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const row of rows) {
    console.log(
      `| ${row.server} | ${row.link} | ${row.clients} | ${f(row.mbPerSecond, 0)} | ${f(row.ratio, 2)} | ${f(row.idleMb, 0)} | ${f(row.peakMb, 0)} | ${latency(row.idle)} | ${latency(row.during)} | ${latency(row.logins)} | ${loop(row.during)} | ${samples(row)} | ${goal(row)} |`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
