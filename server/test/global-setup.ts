import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { AppContext, Logger } from '../context';
import { migrateToLatest, openDatabase } from '../db';
import { createJobs } from '../compose';
import { buildServerForTests } from './main-process';

/** Preparing the jobs' storage logs nothing. */
const silent = { warn() {}, error() {}, info() {}, debug() {} } as unknown as Logger;

/**
 * Runs once per API test run, before any test file: applies the migrations once, to a template that
 * every test app then copies (server/test/harness.ts), instead of once per test app.
 * - SQLite: a migrated database file, read by each app into a database in memory of its own.
 * - PostgreSQL (TEST_DB=postgres): a migrated database each app's database is created from
 *   (`CREATE DATABASE … TEMPLATE …`), dropped at the end of the run.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** the migrated SQLite database file (SQLite pass) */
    sqliteTemplate: string | null;
    /** the name of the migrated PostgreSQL database to copy (PostgreSQL pass) */
    postgresTemplate: string | null;
    /** the folder of the server built once for the run (dist-server's layout), which processes start */
    builtServer: string;
  }
}

/**
 * Also builds the server once, as production runs it (decision 058), for the tests that start it in
 * a process of their own: plain Node starts it in about a second where tsx compiled the sources at
 * every start (seconds, tens of them on a loaded machine).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const built = await buildServerForTests();
  project.provide('builtServer', built.dir);
  const templates = await setupTemplates(project);
  return async () => {
    await templates();
    built.remove();
  };
}

async function setupTemplates(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.TEST_DB === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `portal_template_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const handle = openDatabase(url.toString());
    try {
      await migrateToLatest(handle);
      // pg-boss's schema and the queues of every kind, as an app creates them at start
      await createJobs({ database: handle, log: silent, context: () => ({}) as AppContext }).prepare();
    } finally {
      // A template must have no connection while it is copied.
      await handle.close();
    }
    project.provide('postgresTemplate', name);
    project.provide('sqliteTemplate', null);
    return async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    };
  }

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-api-template-'));
  const migrated = path.join(dir, 'migrated.db');
  const handle = openDatabase(`sqlite:${migrated}`);
  try {
    await migrateToLatest(handle);
  } finally {
    // closing the last connection folds the write-ahead log into the file
    await handle.close();
  }
  // An image in memory cannot be in write-ahead-log mode: the template is the database in rollback
  // mode, as SQLite serializes it.
  const database = new SQLite(migrated);
  database.pragma('journal_mode = DELETE');
  const file = path.join(dir, 'template.db');
  fs.writeFileSync(file, database.serialize());
  database.close();
  project.provide('sqliteTemplate', file);
  project.provide('postgresTemplate', null);
  return async () => fs.rmSync(dir, { recursive: true, force: true });
}
