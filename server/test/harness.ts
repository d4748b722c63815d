import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { SESSION_COOKIE } from '../../common/constants';
import { type BuildOptions, buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import { type DatabaseHandle, type DatabaseOptions, openDatabase } from '../db';

/**
 * API test harness. TEST_DB=postgres (with TEST_DATABASE_URL) runs the same tests on a fresh
 * PostgreSQL database per test app; otherwise SQLite in memory. Either way the database starts as a
 * copy of a template the run migrated once (server/test/global-setup.ts).
 */
export const TEST_DIALECT: 'sqlite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export const BASE_URL = 'http://portal.test';
/** The secret the test apps share with the support desk (a local page in the tests plays the desk). */
const TEST_SUPPORT_JWT_SECRET = 'test-desk-7f3a9c1e5b2d8f4a6c0e9b1d3f5a7c2e';

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `portal_test_${crypto.randomBytes(6).toString('hex')}`;
  const template = inject('postgresTemplate');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      client.on('error', () => {});
      await client.connect();
      try {
        // pg.Pool.end() resolves before its sockets are gone; wait for them rather than killing
        // them with FORCE, which would surface as unhandled errors on the closed pool.
        for (let attempt = 0; attempt < 50; attempt++) {
          const { rows } = await client.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
            name,
          ]);
          if (rows[0].n === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

let sqliteImage: Buffer | undefined;

/** The migrated SQLite template as an image, read once per worker (undefined outside `npm test`'s setup). */
function sqliteTemplateImage(): Buffer | undefined {
  const file = inject('sqliteTemplate');
  if (!file) return undefined;
  sqliteImage ??= fs.readFileSync(file);
  return sqliteImage;
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  close: () => Promise<void>;
}

export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  build: Pick<BuildOptions, 'testRoutes'> = {},
  databaseOptions: DatabaseOptions = {},
): Promise<TestApp> {
  const pgDb = TEST_DIALECT === 'postgres' ? await createPostgresDatabase() : null;
  // each app stores artifacts in a folder of its own, removed with it (never the working copy's ./data)
  const artifactsDir = env.ARTIFACTS_DIR ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'portal-artifacts-'));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      BASE_URL,
      DATABASE_URL: pgDb?.url ?? ':memory:',
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-000',
      // the support desk's shared secret (modules/sso): the hand-off works in every test app
      SUPPORT_JWT_SECRET: TEST_SUPPORT_JWT_SECRET,
      STATIC_DIR: './does-not-exist',
      // One PBKDF2 iteration per guess: tests solve captchas in milliseconds (docs/configuration.md).
      CAPTCHA_COST: '1',
      // Webhook tests deliver to receivers on 127.0.0.1; the SSRF tests turn it off.
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      ...(artifactsDir ? { ARTIFACTS_DIR: artifactsDir } : {}),
      ...env,
    },
    overrides,
  );
  const database = openDatabase(config.databaseUrl, {
    ...(config.databaseUrl === ':memory:' ? { sqliteImage: sqliteTemplateImage() } : {}),
    ...databaseOptions,
  });
  const app = await buildApp(config, { database, startBackgroundWork: false, ...build });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await database.close();
      await pgDb?.drop();
      if (artifactsDir) fs.rmSync(artifactsDir, { recursive: true, force: true });
    },
  };
}

/** The session cookie of a response, ready to send back as a Cookie header. */
export function sessionCookieOf(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${SESSION_COOKIE}=${cookie.value}`;
}

/** app.inject with a session cookie and same-origin headers, as the web client sends them. */
export function request(app: FastifyInstance, cookie: string | null, options: InjectOptions) {
  return app.inject({
    ...options,
    headers: {
      origin: BASE_URL,
      ...(cookie ? { cookie } : {}),
      ...(options.headers ?? {}),
    },
  });
}
