#!/usr/bin/env node
// The whole test command: typecheck, lint, unit tests, API tests on SQLite and (when
// TEST_DATABASE_URL is set) PostgreSQL, the OpenAPI document's lint (Spectral), the client and
// server build with the client's size budget, and the browser journeys in Chromium when one is
// found. Ends with "N passed, N failed"; skipped parts are named.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-test-'));
const inCi = process.env.CI === 'true' || process.env.CI === '1';

let passed = 0;
let failed = 0;
const skipped = [];
const failures = [];

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

/** A check that is one pass or one failure (typecheck, lint, build). */
function check(label, command, args, env) {
  if (run(label, command, args, env)) passed++;
  else {
    failed++;
    failures.push(label);
  }
}

/** A vitest project: counts each test from the JSON report. */
function vitest(label, project, env = {}) {
  const report = path.join(tmp, `${label.replace(/\W+/g, '-')}.json`);
  const ok = run(
    label,
    bin('vitest'),
    ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env,
  );
  const counts = readJson(report);
  if (counts) {
    passed += counts.numPassedTests;
    failed += counts.numFailedTests;
    if (counts.numPendingTests + counts.numTodoTests > 0)
      skipped.push(`${label}: ${counts.numPendingTests + counts.numTodoTests} tests skipped`);
  }
  if (!ok && (!counts || counts.numFailedTests === 0)) failed++; // a crash or a failed suite without a failed test
  if (!ok) failures.push(label);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

check('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
check('lint (ESLint)', bin('eslint'), ['.']);
check('format (Prettier)', bin('prettier'), ['--check', '.']);
vitest('unit tests', 'unit');
vitest('API tests on SQLite', 'api', { TEST_DB: 'sqlite' });

if (process.env.TEST_DATABASE_URL) {
  vitest('API tests on PostgreSQL', 'api', { TEST_DB: 'postgres' });
} else {
  skipped.push('API tests on PostgreSQL: TEST_DATABASE_URL is not set');
  if (inCi) {
    failed++;
    failures.push('PostgreSQL tests skipped in CI');
  }
}

// the OpenAPI document that integrators' tools read: Spectral's OpenAPI rules, no warning allowed
check('API document (Spectral)', process.execPath, [
  '--import',
  'tsx',
  path.join(root, 'scripts', 'api-document.ts'),
  '--lint',
]);

check('client build', bin('vite'), ['build', '--logLevel', 'warn']);
// the server compiled to plain JavaScript, as production runs it (server/main-built.test.ts starts it)
check('server build', process.execPath, [path.join(root, 'scripts', 'build-server.mjs'), '--stamp']);
check('client size budget', process.execPath, [path.join(root, 'scripts', 'check-bundle-size.mjs')]);

const chromium = findChromium();
if (chromium) {
  const report = path.join(tmp, 'e2e.json');
  const ok = run('browser journeys (Chromium)', bin('playwright'), ['test', '--reporter=list,json'], {
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_FILE: report,
  });
  const stats = readJson(report)?.stats;
  if (stats) {
    passed += stats.expected + stats.flaky;
    failed += stats.unexpected;
    if (stats.skipped) skipped.push(`browser journeys: ${stats.skipped} skipped`);
  }
  if (!ok && (!stats || stats.unexpected === 0)) failed++;
  if (!ok) failures.push('browser journeys');
} else {
  skipped.push('browser journeys: no Chromium found (install Debian package chromium, or set CHROMIUM_PATH)');
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
for (const line of skipped) console.log(`skipped: ${line}`);
if (failures.length) console.log(`failed parts: ${failures.join(', ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
