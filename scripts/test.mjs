#!/usr/bin/env node
// The whole test command: typecheck, lint, unit tests, API tests on SQLite and (when
// TEST_DATABASE_URL is set) PostgreSQL, the OpenAPI document's lint (Spectral), the client and
// server build with the client's size budget, and the browser journeys in Chromium when one is
// found. Ends with "N passed, N failed"; skipped parts are named.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { findChromium } from './chromium.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
const inCi = process.env.CI === 'true' || process.env.CI === '1';

let passed = 0;
let failed = 0;
const skipped = [];
const failures = [];
/** The failed tests by name, with the first line of their error: printed again at the very end. */
const failedTests = [];
/** Each stage's label, wall-clock seconds and processor seconds, printed as a table at the end. */
const timings = [];
const started = performance.now();
const machineAtStart = machineBusySeconds();

/**
 * Processor seconds used so far by the finished child processes of this one (and theirs, as each
 * reaps them): what a stage cost whatever else the machine was doing meanwhile. Linux only; null
 * elsewhere.
 */
function childCpuSeconds() {
  try {
    // /proc/self/stat: the fields after the command's closing parenthesis; cutime and cstime are 14th and 15th
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/**
 * Processor seconds the whole machine has been busy so far, all cores (/proc/stat): what a stage
 * cost counting the processes its own account misses (a browser's renderers are not reaped into it)
 * and the database servers it drove, and anything else running meanwhile. Linux only; null elsewhere.
 */
function machineBusySeconds() {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = fs
      .readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .trim()
      .split(/\s+/)
      .map(Number);
    // in clock ticks of 1/100 s, as /proc/self/stat's (childCpuSeconds)
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return null;
  }
}

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const t0 = performance.now();
  const cpu0 = childCpuSeconds();
  const busy0 = machineBusySeconds();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const cpu = cpu0 === null ? null : childCpuSeconds() - cpu0;
  const machine = busy0 === null ? null : machineBusySeconds() - busy0;
  timings.push({ label, seconds: (performance.now() - t0) / 1000, cpu, machine, ok: result.status === 0 });
  return result.status === 0;
}

/** A check that is one pass or one failure (typecheck, lint, build). */
function check(label, command, args, env) {
  count(label, run(label, command, args, env));
}

function count(label, ok) {
  if (ok) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

/**
 * Checks that each keep one core busy (tsc, ESLint, Prettier are single-threaded), run side by side
 * on the machine's cores: each one's output is printed whole when it ends, and its wall clock goes
 * into the table. The processor seconds of processes that ran together cannot be told apart: the
 * group's total is its own row.
 */
async function checksTogether(group, checks) {
  const t0 = performance.now();
  const cpu0 = childCpuSeconds();
  const busy0 = machineBusySeconds();
  const results = await Promise.all(
    checks.map(
      ({ label, command, args }) =>
        new Promise((resolve) => {
          const started = performance.now();
          const child = spawn(command, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
          const output = [];
          child.stdout.on('data', (chunk) => output.push(chunk));
          child.stderr.on('data', (chunk) => output.push(chunk));
          child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
          child.on('close', (status) => {
            console.log(`\n=== ${label} ===`);
            process.stdout.write(Buffer.concat(output));
            resolve({ label, ok: status === 0, seconds: (performance.now() - started) / 1000 });
          });
        }),
    ),
  );
  for (const result of results) {
    timings.push({ label: `  ${result.label}`, seconds: result.seconds, cpu: null, machine: null, ok: result.ok });
    count(result.label, result.ok);
  }
  const cpu = cpu0 === null ? null : childCpuSeconds() - cpu0;
  const machine = busy0 === null ? null : machineBusySeconds() - busy0;
  timings.splice(timings.length - results.length, 0, {
    label: `${group} (together)`,
    seconds: (performance.now() - t0) / 1000,
    cpu,
    machine,
    ok: results.every((result) => result.ok),
  });
}

/**
 * The Node line the PostgreSQL pass runs on, beside the one running this command: the current LTS,
 * from the registry's `node-<platform>-<arch>` package (the binaries the `node` package installs),
 * kept under .cache/ once fetched. better-sqlite3's native module is built for the Node that installed
 * the dependencies and cannot be rebuilt for another here (no Node headers to build against), so the
 * SQLite pass stays on this Node; the PostgreSQL pass opens no SQLite database. NODE_LTS=off, or a
 * platform without the package, runs both passes on this Node (said in the output).
 */
const NODE_LTS_VERSION = '24.21.0';

function ltsNode() {
  if (process.env.NODE_LTS === 'off') return { node: process.execPath, why: 'NODE_LTS=off' };
  if (process.versions.node.split('.')[0] === NODE_LTS_VERSION.split('.')[0]) return { node: process.execPath };
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const pkg = `node-${platform}-${process.arch}`;
  const prefix = path.join(root, '.cache', `node-${NODE_LTS_VERSION}`);
  const node = path.join(prefix, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (!fs.existsSync(node)) {
    console.log(`\n=== fetching Node ${NODE_LTS_VERSION} (${pkg}) for the PostgreSQL pass ===`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const fetched = spawnSync(
      npm,
      [
        'install',
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        '--prefix',
        prefix,
        `${pkg}@${NODE_LTS_VERSION}`,
      ],
      { cwd: root, stdio: 'inherit' },
    );
    if (fetched.status !== 0 || !fs.existsSync(node)) {
      return { node: process.execPath, why: `${pkg}@${NODE_LTS_VERSION} could not be installed` };
    }
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  return version ? { node } : { node: process.execPath, why: `${node} does not run here` };
}

/** Vitest projects: counts each test from the JSON report. `node`: the Node binary to run them on. */
function vitest(label, projects, env = {}, node = null) {
  const report = path.join(tmp, `${label.replace(/\W+/g, '-')}.json`);
  const ok = run(
    label,
    node ?? bin('vitest'),
    [
      ...(node ? [path.join(root, 'node_modules', 'vitest', 'vitest.mjs')] : []),
      'run',
      ...projects.flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
    ],
    env,
  );
  const counts = readJson(report);
  if (counts) {
    passed += counts.numPassedTests;
    failed += counts.numFailedTests;
    for (const file of counts.testResults ?? []) {
      const where = path.relative(root, file.name);
      const failedInFile = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failedInFile)
        failedTests.push(`${label}: ${where} > ${t.fullName}: ${firstLine(t.failureMessages)}`);
      // a file that failed without a failed test (an error in a hook or at import)
      if (file.status === 'failed' && failedInFile.length === 0)
        failedTests.push(`${label}: ${where}: ${firstLine([file.message])}`);
    }
    if (counts.numPendingTests + counts.numTodoTests > 0)
      skipped.push(`${label}: ${counts.numPendingTests + counts.numTodoTests} tests skipped`);
  }
  if (!ok && (!counts || counts.numFailedTests === 0)) failed++; // a crash or a failed suite without a failed test
  if (!ok) failures.push(label);
}

/** The first line of the first error message, short enough for a summary. */
function firstLine(messages) {
  const line =
    (messages ?? [])
      .find(Boolean)
      ?.split('\n')
      .find((l) => l.trim()) ?? 'no message';
  return line.trim().slice(0, 300);
}

/** The failed journeys of Playwright's JSON report, each with its file, title and first error line. */
function failedJourneys(suite, file = suite.file) {
  const found = [];
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests ?? [])
      if (test.status === 'unexpected') {
        const errors = (test.results ?? []).flatMap((r) => (r.errors ?? []).map((e) => e.message));
        found.push(`browser journeys: ${spec.file ?? file} > ${spec.title}: ${firstLine(errors)}`);
      }
  for (const child of suite.suites ?? []) found.push(...failedJourneys(child, child.file ?? file));
  return found;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The stages' durations: wall clock, and the processor time the stage's processes used (on a machine
 * shared with other work the first grows with the load, the second much less).
 */
function printTimings() {
  const total = (performance.now() - started) / 1000;
  // the rows of checks run together (indented) have their group's row above them
  const stages = timings.filter((t) => !t.label.startsWith(' '));
  const cpuTotal = stages.every((t) => t.cpu !== null) ? stages.reduce((sum, t) => sum + t.cpu, 0) : null;
  const busyNow = machineBusySeconds();
  const machineTotal = busyNow === null || machineAtStart === null ? null : busyNow - machineAtStart;
  const rows = [
    ...timings.map((t) => [t.label, t.seconds, t.cpu, t.machine, t.ok ? '' : 'failed']),
    ['total', total, cpuTotal, machineTotal, ''],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const [load1, load5, load15] = os.loadavg();
  const load = [load1, load5, load15].map((n) => n.toFixed(1)).join(' ');
  const seconds = (value) => (value === null ? '-' : `${value.toFixed(1)} s`).padStart(9);
  console.log(`stage durations (${os.cpus().length} cores, load average now ${load}):`);
  console.log("  processor: what the stage's own processes used; machine: what every core was busy with meanwhile");
  console.log(
    `  ${'stage'.padEnd(width)}  ${'wall'.padStart(9)}  ${'processor'.padStart(9)}  ${'machine'.padStart(9)}`,
  );
  for (const [label, wall, cpu, machine, note] of rows) {
    console.log(
      `  ${label.padEnd(width)}  ${seconds(wall)}  ${seconds(cpu)}  ${seconds(machine)}${note ? `  ${note}` : ''}`,
    );
  }
}

await checksTogether('static checks', [
  { label: 'typecheck', command: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.json'] },
  { label: 'lint (ESLint)', command: bin('eslint'), args: ['.'] },
  { label: 'format (Prettier)', command: bin('prettier'), args: ['--check', '.'] },
]);
// The API tests are two vitest projects: `api` (files sharing their worker's modules) and
// `api-isolated` (files that replace a module); vitest.config.ts says which file is which.
const API_PROJECTS = ['api', 'api-isolated'];
vitest('unit tests', ['unit', 'unit-isolated']);
vitest(`API tests on SQLite (Node ${process.versions.node})`, API_PROJECTS, { TEST_DB: 'sqlite' });

if (process.env.TEST_DATABASE_URL) {
  const lts = ltsNode();
  const version = spawnSync(lts.node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  if (lts.why) console.log(`\nThe PostgreSQL pass runs on this Node (${version}): ${lts.why}.`);
  else
    console.log(
      `\nThe PostgreSQL pass runs on Node ${version}, the SQLite one on ${process.version} ` +
        "(better-sqlite3's native module is built for the Node that installed the dependencies).",
    );
  vitest(
    `API tests on PostgreSQL (Node ${version.replace(/^v/, '')})`,
    API_PROJECTS,
    {
      TEST_DB: 'postgres',
      // Node 24 says at each start that Web Crypto's newest algorithms are experimental (the OpenID
      // Connect libraries look them up): not a finding, and a hundred lines of it
      ...(lts.node === process.execPath
        ? {}
        : {
            NODE_OPTIONS: [process.env.NODE_OPTIONS, '--disable-warning=ExperimentalWarning'].filter(Boolean).join(' '),
          }),
    },
    lts.node,
  );
} else {
  skipped.push('API tests on PostgreSQL: TEST_DATABASE_URL is not set');
  if (inCi) {
    failed++;
    failures.push('PostgreSQL tests skipped in CI');
  }
}

await checksTogether('document and builds', [
  // the OpenAPI document that integrators' tools read: Spectral's OpenAPI rules, no warning allowed
  {
    label: 'API document (Spectral)',
    command: process.execPath,
    args: ['--import', 'tsx', path.join(root, 'scripts', 'api-document.ts'), '--lint'],
  },
  { label: 'client build', command: bin('vite'), args: ['build', '--logLevel', 'warn'] },
  // the server compiled to plain JavaScript, as production runs it (server/main-built.test.ts starts it)
  {
    label: 'server build',
    command: process.execPath,
    args: [path.join(root, 'scripts', 'build-server.mjs'), '--stamp'],
  },
]);
check('client size budget', process.execPath, [path.join(root, 'scripts', 'check-bundle-size.mjs')]);

const chromium = findChromium();
if (chromium) {
  const report = path.join(tmp, 'e2e.json');
  const ok = run(`browser journeys (${path.basename(chromium)})`, bin('playwright'), ['test', '--reporter=list,json'], {
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_FILE: report,
  });
  const journeys = readJson(report);
  const stats = journeys?.stats;
  for (const suite of journeys?.suites ?? []) failedTests.push(...failedJourneys(suite));
  if (stats) {
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    if (stats.skipped) skipped.push(`browser journeys: ${stats.skipped} skipped`);
  }
  if (!ok && (!stats || stats.unexpected === 0)) failed++;
  if (!ok) failures.push('browser journeys');
} else {
  skipped.push(
    'browser journeys: no Chromium found (install Debian package chromium-headless-shell or chromium, or set CHROMIUM_PATH)',
  );
  if (inCi) {
    failed++;
    failures.push('browser journeys skipped in CI');
  }
}

if (inCi && skipped.length > 0 && !failures.some((f) => f.includes('skipped in CI'))) {
  failed++;
  failures.push('parts skipped in CI');
}

fs.rmSync(tmp, { recursive: true, force: true });
console.log('');
printTimings();
for (const line of skipped) console.log(`skipped: ${line}`);
for (const line of failedTests) console.log(`failed: ${stripVTControlCharacters(line)}`);
if (failures.length) console.log(`failed parts: ${failures.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
