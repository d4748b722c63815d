import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDownloadPath } from '../../common/api/catalogue';
import type { AppContext } from '../context';
import { openDatabase } from '../db';
import { createLocalStorage } from '../integrations/storage/local';
import { findLicence } from '../modules/licences/repo';
import { createCustomer, createLicence, createProduct, createVersionWithFiles } from '../test/factories';
import { freePort, type Started, start, waitForHealth } from '../test/main-process';

/**
 * A portal process killed (SIGKILL: no shutdown hook runs) while it serves downloads: every download it
 * answered has its downloads row and its audit entry once it runs again, since each answer queued its
 * record as a durable job before it went (decision 063). SQLite files, whatever TEST_DB says.
 */
let dir: string;
let port: number;
let portal: Started | null = null;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-crash-'));
  port = await freePort();
});
afterAll(async () => {
  portal?.child.kill('SIGKILL');
  await portal?.exited;
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  PORT: String(port),
  DATABASE_URL: `sqlite:${path.join(dir, 'portal.db')}`,
  STATIC_DIR: path.join(dir, 'no-client'),
  DATA_DIR: dir,
  SEED_DEMO_DATA: 'false',
  LOG_LEVEL: 'warn',
});

/** A download fully received: true when the whole body came with a 200. */
function download(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`http://127.0.0.1:${port}${url}`, (response) => {
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
      });
      response.on('end', () => resolve(response.statusCode === 200 && length === 64 * 1024));
      response.on('error', () => resolve(false));
    });
    request.on('error', () => resolve(false));
  });
}

describe('a portal killed while serving downloads', () => {
  it('records every download it answered, once it runs again', async () => {
    portal = start(env());
    await waitForHealth(port, portal);
    const database = openDatabase(`sqlite:${path.join(dir, 'portal.db')}`);
    let url: string;
    try {
      const { db } = database;
      const ctx = { db, storage: createLocalStorage(path.join(dir, 'artifacts')) } as AppContext;
      const product = await createProduct(db, { key: 'crashed' });
      const customer = await createCustomer(db);
      const licence = await createLicence(db, customer.id, product.key);
      await createVersionWithFiles(ctx, product.key, {
        semVer: '1.0.0',
        files: { linux: { bytes: crypto.randomBytes(64 * 1024) } },
      });
      url = secretDownloadPath('linux', product.key, 'latest', (await findLicence(db, licence.id))!.downloadSecret);
    } finally {
      await database.close();
    }

    // downloads in a steady stream, 8 at a time; the process is killed while they run
    let answered = 0;
    let stop = false;
    const streams = Array.from({ length: 8 }, async () => {
      while (!stop) if (await download(url)) answered++;
    });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    portal.child.kill('SIGKILL');
    await portal.exited;
    stop = true;
    await Promise.all(streams);
    expect(answered).toBeGreaterThan(10);

    portal = start(env());
    await waitForHealth(port, portal);
    const file = new SQLite(path.join(dir, 'portal.db'), { readonly: true });
    const count = (table: string, where = '') =>
      (file.prepare(`select count(*) as n from ${table} ${where}`).get() as { n: number }).n;
    try {
      const deadline = Date.now() + 20_000;
      while (count('downloads') < answered && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // at least once: a record whose job was killed between its commit and its completion counts twice
      expect(count('downloads')).toBeGreaterThanOrEqual(answered);
      expect(count('audit_log', "where action = 'downloadArtifact'")).toBeGreaterThanOrEqual(answered);
      expect(count('downloads')).toBeLessThanOrEqual(answered + 10);
    } finally {
      file.close();
    }
  }, 90_000);
});
