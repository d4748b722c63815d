import fs from 'node:fs';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { ENV, requireEnv } from './helpers/environment';
import { freePort, startPortal, stopPortal } from './helpers/portal-server';
import { PORTAL_ENV, runPaths } from './helpers/run-state';
import { startSmtpPeer } from './helpers/smtp-peer';

export { expect } from '@playwright/test';

/** The portal of this worker: its address, the folder its SMTP peer writes mails to, and its database file. */
interface WorkerPortal {
  baseUrl: string;
  mailDir: string;
  database: string;
}

/**
 * Every journey imports `test` from here. Each worker process starts, before its first journey, a
 * portal of its own on a copy of the seeded database and files, with an SMTP peer of its own: two
 * workers share no data, no mailbox and no per-IP counter (failed sign-ins, rate limits). A worker
 * that starts again after a failure starts from a fresh copy.
 */
export const test = base.extend<object, { portal: WorkerPortal }>({
  portal: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern
    async ({}, use, workerInfo) => {
      const paths = runPaths(requireEnv(ENV.runDir));
      const dir = paths.workerDir(workerInfo.workerIndex);
      fs.mkdirSync(dir, { recursive: true });
      const database = path.join(dir, 'e2e.db');
      fs.copyFileSync(paths.seedDatabase, database);
      // none once the seeding portal closed the database cleanly; copied should one be left
      if (fs.existsSync(`${paths.seedDatabase}-wal`)) fs.copyFileSync(`${paths.seedDatabase}-wal`, `${database}-wal`);
      const dataDir = path.join(dir, 'data');
      if (fs.existsSync(paths.seedData)) fs.cpSync(paths.seedData, dataDir, { recursive: true });
      const mailDir = path.join(dir, 'mail');

      const smtp = await startSmtpPeer(mailDir);
      try {
        const portal = await startPortal({
          port: await freePort(),
          logFile: path.join(dir, 'portal.log'),
          env: {
            ...PORTAL_ENV,
            DATABASE_URL: `sqlite:${database}`,
            DATA_DIR: dataDir,
            STATIC_DIR: paths.staticDir,
            SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
            SEED_DEMO_DATA: 'false',
          },
        });
        // The helpers (API sessions, mailbox) read these in this worker's process.
        process.env[ENV.baseUrl] = portal.baseUrl;
        process.env[ENV.mailDir] = mailDir;
        try {
          await use({ baseUrl: portal.baseUrl, mailDir, database });
        } finally {
          await stopPortal(portal.process);
        }
      } finally {
        await smtp.close();
      }
    },
    { scope: 'worker', auto: true, timeout: 120_000 },
  ],
  baseURL: async ({ portal }, use) => use(portal.baseUrl),
});
