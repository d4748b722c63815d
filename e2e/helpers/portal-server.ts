import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');

const CLIENT_SOURCES = ['client', 'common', 'index.html', 'public.html', 'vite.config.ts'];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/**
 * The client the run serves, as a private folder: a copy of ./dist when it is up to date (the runner
 * script builds just before the journeys), else a fresh build. Either way ./dist, which others may be
 * rebuilding meanwhile, is never written to, and the run serves one consistent build.
 */
export function prepareClient(target: string): string {
  const dist = path.join(REPO_ROOT, 'dist');
  const index = path.join(dist, 'index.html');
  const builtAt = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sourcesAt = Math.max(...CLIENT_SOURCES.map((s) => newestMtime(path.join(REPO_ROOT, s))));
  if (builtAt > 0 && builtAt >= sourcesAt) {
    fs.cpSync(dist, target, { recursive: true });
    return target;
  }
  console.log(builtAt ? 'e2e: ./dist is older than the client sources: building' : 'e2e: no ./dist: building');
  const vite = path.join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--logLevel', 'warn', '--outDir', target, '--emptyOutDir'],
    { cwd: REPO_ROOT, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status ?? result.signal})`);
  return target;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address() as net.AddressInfo;
      probe.close(() => resolve(address.port));
    });
  });
}

export interface PortalServer {
  baseUrl: string;
  process: ChildProcess;
  logFile: string;
}

function tail(file: string, lines = 60): string {
  if (!fs.existsSync(file)) return '(no log)';
  return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
}

/** Starts `node --import tsx server/main.ts` and resolves once GET /api/health answers 200. */
export async function startPortal(options: {
  env: Record<string, string>;
  port: number;
  logFile: string;
  timeoutMs?: number;
  /** the host of BASE_URL: `localhost` where the browser needs a domain (a passkey's relying party) */
  host?: string;
}): Promise<PortalServer> {
  const baseUrl = `http://${options.host ?? '127.0.0.1'}:${options.port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Settings from the developer's shell must not change what the journeys test (a reCAPTCHA key
  // would replace the built-in captcha, a Redis URL would share rate-limit counters).
  for (const name of ['RECAPTCHA_SITE_KEY', 'RECAPTCHA_SECRET_KEY', 'REDIS_URL', 'STATIC_DIR', 'TRUST_PROXY']) {
    delete env[name];
  }
  Object.assign(env, options.env, { PORT: String(options.port), HOST: '127.0.0.1', BASE_URL: baseUrl });

  const log = fs.openSync(options.logFile, 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);

  let exited = null as string | null;
  child.once('exit', (code, signal) => {
    exited = `exited with ${code ?? signal}`;
  });

  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  while (Date.now() < deadline) {
    if (exited) throw new Error(`The portal ${exited} before it was healthy. Log:\n${tail(options.logFile)}`);
    try {
      const response = await fetch(`http://127.0.0.1:${options.port}/api/health`, {
        signal: AbortSignal.timeout(2000),
      });
      if (response.status === 200) return { baseUrl, process: child, logFile: options.logFile };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`The portal was not healthy within the time limit. Log:\n${tail(options.logFile)}`);
}

/** SIGTERM lets the portal close its database; SIGKILL if it has not gone after a while. */
export async function stopPortal(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}
