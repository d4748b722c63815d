import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDownloadPath } from '../common/api/catalogue';
import type { AppContext } from './context';
import { openDatabase } from './db';
import { createLocalStorage } from './integrations/storage/local';
import { findLicence } from './modules/licences/repo';
import { freePort, start, waitForHealth } from './test/main-process';
import { createCustomer, createLicence, createProduct, createVersionWithFiles } from './test/factories';

/**
 * server/main.ts run as an operator runs it: its own process on a temporary SQLite database and a
 * free port. SIGTERM must stop it cleanly (exit 0) after the requests in flight are answered, and a
 * wrong setting must stop it at once with a message naming the variable.
 */
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-main-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Sends a request's head and the first part of its body now; `finish()` sends the rest. */
function slowRequest(port: number, body: string) {
  let finish = () => {};
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/auth/login',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    finish = () => req.end(body.slice(half));
  });
  return { response, finish: () => finish() };
}

describe('server/main.ts', () => {
  it('on SIGTERM stops accepting, answers the request in flight, closes the database and exits 0', async () => {
    const port = await freePort();
    const started = start({
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dir, 'portal.db')}`,
      STATIC_DIR: path.join(dir, 'no-client'),
      DATA_DIR: dir,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
    });
    try {
      await waitForHealth(port, started);

      const inFlight = slowRequest(port, JSON.stringify({ email: 'nobody@example.com', password: 'x'.repeat(500) }));
      // the server has the request's head: it is in flight when the signal comes
      await new Promise((resolve) => setTimeout(resolve, 300));
      started.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));

      // no new connections meanwhile
      await expect(fetch(`http://127.0.0.1:${port}/api/health`)).rejects.toThrow();

      inFlight.finish();
      const answer = await inFlight.response;
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.body).error.code).toBe('bad_credentials');

      const exit = await started.exited;
      expect(exit, started.output()).toEqual({ code: 0, signal: null });
      expect(started.output()).toContain('shutting down');
      expect(started.output()).toContain('database closed');
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('answers GET /api/ready 503 from SIGTERM on, serving on for SHUTDOWN_DELAY_SECONDS before it closes', async () => {
    const port = await freePort();
    const data = fs.mkdtempSync(path.join(dir, 'ready-'));
    const started = start({
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(data, 'portal.db')}`,
      STATIC_DIR: path.join(data, 'no-client'),
      DATA_DIR: data,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
      SHUTDOWN_DELAY_SECONDS: '2',
    });
    try {
      await waitForHealth(port, started);
      const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied', draining: false });

      const signalled = Date.now();
      started.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const draining = await fetch(`http://127.0.0.1:${port}/api/ready`);
      expect(draining.status).toBe(503);
      expect(await draining.json()).toEqual({
        status: 'unavailable',
        database: 'ok',
        migrations: 'applied',
        draining: true,
      });
      // alive, not ready: new connections are still answered until the delay ends
      expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);

      const exit = await started.exited;
      expect(exit, started.output()).toEqual({ code: 0, signal: null });
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1900);
      expect(started.output()).toContain('not ready: serving on until the delay ends');
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('on SIGTERM lets a download in progress finish, within SHUTDOWN_GRACE_SECONDS', async () => {
    const port = await freePort();
    const data = fs.mkdtempSync(path.join(dir, 'drain-'));
    const databaseFile = path.join(data, 'portal.db');
    const started = start({
      PORT: String(port),
      DATABASE_URL: `sqlite:${databaseFile}`,
      STATIC_DIR: path.join(data, 'no-client'),
      DATA_DIR: data,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'info',
    });
    try {
      await waitForHealth(port, started);
      const bytes = crypto.randomBytes(24 * 1024 * 1024);
      const url = await downloadableArtifact(databaseFile, path.join(data, 'artifacts'), bytes);

      const hash = crypto.createHash('sha256');
      let received = 0;
      let response!: http.IncomingMessage;
      await new Promise<void>((resolve, reject) => {
        http
          .get(`http://127.0.0.1:${port}${url}`, (res) => {
            response = res;
            res.once('data', (chunk: Buffer) => {
              hash.update(chunk);
              received += chunk.length;
              // the client stops reading: most of the file is still to be sent when the signal comes
              res.pause();
              resolve();
            });
          })
          .on('error', reject);
      });
      expect(response.statusCode).toBe(200);
      started.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(started.child.exitCode, 'still draining').toBeNull();
      expect(received).toBeLessThan(bytes.length / 2);

      const done = new Promise<void>((resolve, reject) => {
        response.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          received += chunk.length;
        });
        response.on('end', resolve);
        response.on('error', reject);
      });
      response.resume();
      await done;
      expect(received).toBe(bytes.length);
      expect(hash.digest('hex')).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
      const exit = await started.exited;
      expect(exit, started.output()).toEqual({ code: 0, signal: null });
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('gives up on a stalled download after SHUTDOWN_GRACE_SECONDS and exits 1', async () => {
    const port = await freePort();
    const data = fs.mkdtempSync(path.join(dir, 'grace-'));
    const databaseFile = path.join(data, 'portal.db');
    const started = start({
      PORT: String(port),
      DATABASE_URL: `sqlite:${databaseFile}`,
      STATIC_DIR: path.join(data, 'no-client'),
      DATA_DIR: data,
      SEED_DEMO_DATA: 'false',
      SHUTDOWN_GRACE_SECONDS: '1',
    });
    try {
      await waitForHealth(port, started);
      const url = await downloadableArtifact(databaseFile, path.join(data, 'artifacts'), crypto.randomBytes(16 << 20));
      const request = http.get(`http://127.0.0.1:${port}${url}`, (res) => res.pause());
      request.on('error', () => {});
      await new Promise((resolve) => setTimeout(resolve, 300));
      const signalled = Date.now();
      started.child.kill('SIGTERM');
      const exit = await started.exited;
      expect(exit.code).toBe(1);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(900);
      expect(started.output()).toContain('Shutdown took longer than 1 s');
      request.destroy();
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('starts in production on an empty database without the demo accounts, and says so', async () => {
    const port = await freePort();
    const data = fs.mkdtempSync(path.join(dir, 'production-'));
    const databaseFile = path.join(data, 'portal.db');
    const started = start({
      NODE_ENV: 'production',
      PORT: String(port),
      DATABASE_URL: `sqlite:${databaseFile}`,
      STATIC_DIR: path.join(data, 'no-client'),
      DATA_DIR: data,
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      SMTP_URL: 'smtp://127.0.0.1:9',
      PAYMENT_TEST_CHECKOUT: 'true',
      LOG_LEVEL: 'info',
    });
    try {
      await waitForHealth(port, started);
      expect(started.output()).toContain('no demo data is loaded');
      const database = openDatabase(`sqlite:${databaseFile}`);
      try {
        const { count } = await database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow();
        expect(count).toBe(0);
      } finally {
        await database.close();
      }
    } finally {
      started.child.kill('SIGKILL');
      await started.exited;
    }
  });

  it('refuses the demo data in production, before it touches the database', async () => {
    const started = start({
      NODE_ENV: 'production',
      DATABASE_URL: `sqlite:${path.join(dir, 'never-seeded.db')}`,
      SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
      SMTP_URL: 'smtp://127.0.0.1:9',
      SEED_DEMO_DATA: 'true',
    });
    const exit = await started.exited;
    expect(exit.code).toBe(1);
    expect(started.output()).toMatch(/SEED_DEMO_DATA: cannot be enabled in production/);
    expect(fs.existsSync(path.join(dir, 'never-seeded.db'))).toBe(false);
  });

  it('refuses a wrong setting with a message naming the variable, and exits non-zero', async () => {
    const started = start({ PORT: 'abc', DATABASE_URL: `sqlite:${path.join(dir, 'unused.db')}` });
    const exit = await started.exited;
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(started.output()).toMatch(/Invalid configuration:[\s\S]*PORT/);
    expect(fs.existsSync(path.join(dir, 'unused.db'))).toBe(false);
  });
});

/**
 * A product, a customer's licence and a published version with `bytes` as its linux artifact, written
 * into the running server's database and artifact folder; answers the licence's secret URL.
 */
async function downloadableArtifact(databaseFile: string, artifactsDir: string, bytes: Buffer): Promise<string> {
  const database = openDatabase(`sqlite:${databaseFile}`);
  try {
    const { db } = database;
    const ctx = { db, storage: createLocalStorage(artifactsDir) } as AppContext;
    const product = await createProduct(db, { key: 'drained' });
    const customer = await createCustomer(db);
    const licence = await createLicence(db, customer.id, product.key);
    await createVersionWithFiles(ctx, product.key, { semVer: '1.0.0', files: { linux: { bytes } } });
    const secret = (await findLicence(db, licence.id))!.downloadSecret;
    return secretDownloadPath('linux', product.key, 'latest', secret);
  } finally {
    await database.close();
  }
}
