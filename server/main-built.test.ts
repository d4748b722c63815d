import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort, start, waitForHealth } from './test/main-process';

/**
 * The server as production runs it (docs/operations.md, decision 058): compiled by `npm run build`
 * to plain JavaScript and started with `node dist-server/server/main.js`, no TypeScript loader. Built
 * once for the run by the API tests' global set-up (server/test/global-setup.ts) into a folder of its
 * own, beside which node_modules is linked as it is in the project; every test that starts the portal
 * in a process of its own starts that build.
 */
const root = path.resolve(import.meta.dirname, '..');
let dir: string;
const built = inject('builtServer');

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-built-data-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the built server (dist-server/server/main.js)', () => {
  it('is plain JavaScript: it imports no TypeScript and no loader', () => {
    for (const file of ['main.js', 'cli.js']) {
      const code = fs.readFileSync(path.join(built, 'server', file), 'utf8');
      expect(code, file).not.toMatch(/(?:from|import\()\s*["'][^"']*\.tsx?["']/);
      expect(code, file).not.toMatch(/["']tsx(?:\/[^"']*)?["']/);
      // its packages come from node_modules, not copied into it
      expect(code, file).toMatch(/from "kysely"/);
    }
  });

  it('imports only packages of `dependencies`, so an install without the development ones runs it', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const imported = new Set<string>();
    for (const file of ['main.js', 'cli.js']) {
      const code = fs.readFileSync(path.join(built, 'server', file), 'utf8');
      const specifiers = [
        ...code.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?"([^"]+)"/gm),
        ...code.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
      ].map((match) => match[1]);
      for (const specifier of specifiers) {
        if (specifier.startsWith('node:') || specifier.startsWith('.')) continue;
        const parts = specifier.split('/');
        imported.add(parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
      }
    }
    expect(imported.size).toBeGreaterThan(10);
    expect([...imported].filter((name) => !(name in manifest.dependencies))).toEqual([]);
  });

  it('starts under plain Node, answers health, serves the files it reads beside its code, and stops on SIGTERM', async () => {
    const port = await freePort();
    const data = fs.mkdtempSync(path.join(dir, 'data-'));
    const started = start(
      {
        NODE_ENV: 'production',
        PORT: String(port),
        DATABASE_URL: `sqlite:${path.join(data, 'portal.db')}`,
        STATIC_DIR: path.join(data, 'no-client'),
        DATA_DIR: data,
        SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
        SMTP_URL: 'smtp://127.0.0.1:9',
        // no Stripe account here: the built-in test checkout, said out loud (docs/billing.md)
        PAYMENT_TEST_CHECKOUT: 'true',
        LOG_LEVEL: 'warn',
      },
      path.join(built, 'server', 'main.js'),
    );
    try {
      expect(started.child.spawnargs.slice(1)).toEqual([path.join(built, 'server', 'main.js')]);
      await waitForHealth(port, started);
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok' });
      // the shipped legal documents, read at run time from beside the code
      const terms = await fetch(`http://127.0.0.1:${port}/api/legal/terms-and-conditions?locale=fr`);
      expect(terms.status).toBe(200);
      expect(((await terms.json()) as { html: string }).html).toMatch(/<p>/);
      // the API document, generated at run time from the routes
      const document = (await (await fetch(`http://127.0.0.1:${port}/api/docs/json`)).json()) as {
        paths: Record<string, Record<string, { operationId: string }>>;
      };
      expect(document.paths['/api/versions/{id}/artifacts/{platform}'].put.operationId).toBe('uploadArtifact');

      started.child.kill('SIGTERM');
      expect(await started.exited, started.output()).toEqual({ code: 0, signal: null });
    } finally {
      started.child.kill('SIGKILL');
    }
  });
});
