#!/usr/bin/env node
// npm run bench:start: how long the server takes to answer after it is started, and its resident
// memory at rest (after the start and one request), side by side in one run (decision 058):
//
// - the portal from its sources through the TypeScript loader (`node --import tsx server/main.ts`,
//   how `npm start` ran it before);
// - the portal built to plain JavaScript (`node dist-server/server/main.js`, built here first);
// - a bare Fastify app with the SQLite driver and one route that reads the database.
//
// Each runs RUNS times (default 5) on the same migrated SQLite database, in production mode, with
// nothing else to do; the medians are printed. Memory is the process's VmRSS (with any child
// process it started, such as a loader's compiler), read 2 s after its first answer and one more
// request.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../scripts/build-server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const runs = Number(process.env.RUNS ?? 5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-start-'));
const built = path.join(dir, 'dist-server');

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Resident memory of a process and its descendants, in kB (Linux /proc). */
function treeRssKb(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const visit = (id) => {
    try {
      const status = fs.readFileSync(`/proc/${id}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      return;
    }
    for (const child of children.get(id) ?? []) visit(child);
  };
  visit(pid);
  return total;
}

const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'production',
  DATABASE_URL: `sqlite:${path.join(dir, 'portal.db')}`,
  DATA_DIR: dir,
  STATIC_DIR: path.join(dir, 'no-client'),
  SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
  SMTP_URL: 'smtp://127.0.0.1:9',
  PAYMENT_TEST_CHECKOUT: 'true',
  LOG_LEVEL: 'warn',
};

/** One start: ms from spawn to the first 200 of /api/health, and the RSS at rest in MB. */
async function once(args) {
  const port = await freePort();
  const begun = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { ...env, PORT: String(port) }, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    let startMs = null;
    while (startMs === null) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      if (performance.now() - begun > 60_000) throw new Error(`${args.join(' ')}: no answer within 60 s`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (response.status === 200) startMs = performance.now() - begun;
      } catch {
        await sleep(10);
      }
    }
    await (await fetch(`http://127.0.0.1:${port}/api/health`)).text();
    await sleep(2000);
    return { startMs, rssMb: treeRssKb(child.pid) / 1024 };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function measure(label, args) {
  await once(args); // the first start migrates the database, or fills a loader's cache
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await once(args));
  const row = {
    label,
    command: `node ${args.map((arg) => arg.replace(`${dir}/`, '')).join(' ')}`,
    startMs: median(results.map((r) => r.startMs)),
    rssMb: median(results.map((r) => r.rssMb)),
  };
  console.error(`${label}: ${Math.round(row.startMs)} ms, ${row.rssMb.toFixed(0)} MB`);
  return row;
}

try {
  await buildServer(built);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(built, 'node_modules'), 'dir');
  const rows = [
    await measure('portal from sources (tsx)', ['--import', 'tsx', path.join(root, 'server/main.ts')]),
    await measure('portal built (plain JS)', [path.join(built, 'server/main.js')]),
    await measure('bare Fastify + SQLite', [path.join(root, 'bench/bare-start.mjs')]),
  ];
  const bare = rows.at(-1);
  const load = os.loadavg()[0].toFixed(1);
  console.log(
    `\nNode ${process.version}, ${os.cpus().length} cores (load average ${load}), median of ${runs} starts on a migrated SQLite database\n`,
  );
  console.log('| server | command | start to first answer ms | RSS at rest MB | RSS / bare |');
  console.log('|---|---|---|---|---|');
  for (const row of rows) {
    const command = row.command.replaceAll(`${root}/`, '');
    console.log(
      `| ${row.label} | \`${command}\` | ${Math.round(row.startMs)} | ${row.rssMb.toFixed(0)} | ${(row.rssMb / bare.rssMb).toFixed(1)}x |`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
