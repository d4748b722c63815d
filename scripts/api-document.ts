/**
 * The OpenAPI document without a running portal (docs/api.md): builds the app on an in-memory
 * SQLite database and asks it for GET /api/docs/json, as a client of a running portal would.
 *
 *   node --import tsx scripts/api-document.ts [file]         writes it (standard output without a file)
 *   node --import tsx scripts/api-document.ts --lint [file]  then lints it with Spectral (.spectral.yaml)
 *
 * With --lint it exits non-zero on any Spectral warning or error: a step of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';

const root = path.resolve(import.meta.dirname, '..');

/** The document as the portal serves it, from an app on a throwaway database. */
async function apiDocument(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-api-document-'));
  try {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      BASE_URL: 'http://localhost:3000',
      DATABASE_URL: ':memory:',
      SESSION_SECRET: 'api-document-secret-that-is-long-enough-0',
      DATA_DIR: dir,
      STATIC_DIR: path.join(dir, 'no-client'),
    });
    const app = await buildApp(config, { startBackgroundWork: false });
    try {
      const response = await app.inject({ url: '/api/docs/json' });
      if (response.statusCode !== 200) throw new Error(`GET /api/docs/json answered ${response.statusCode}`);
      return JSON.stringify(response.json(), null, 2);
    } finally {
      await app.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  const lint = args.includes('--lint');
  const file = args.find((arg) => arg !== '--lint');
  const document = await apiDocument();
  if (!lint) {
    if (file) fs.writeFileSync(file, document);
    else process.stdout.write(`${document}\n`);
    return;
  }
  const dir = file ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'portal-api-document-'));
  const target = file ?? path.join(dir!, 'openapi.json');
  try {
    fs.writeFileSync(target, document);
    const spectral = spawnSync(
      path.join(root, 'node_modules', '.bin', 'spectral'),
      ['lint', '--ruleset', path.join(root, '.spectral.yaml'), '--fail-severity=warn', target],
      { stdio: 'inherit' },
    );
    process.exitCode = spectral.status ?? 1;
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await main();
}
