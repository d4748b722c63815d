import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENV } from './helpers/environment';
import { freePort, prepareClient, startPortal, stopPortal } from './helpers/portal-server';
import { PORTAL_ENV, runPaths } from './helpers/run-state';

/**
 * Prepares what every worker's portal starts from, once per run: the client build and a SQLite
 * database seeded with the demo data (by a portal started on it, then stopped). Each worker copies
 * the database and its files and starts a portal of its own on them (e2e/fixtures.ts).
 */
export default async function globalSetup(): Promise<void> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  process.env[ENV.runDir] = runDir;
  const paths = runPaths(runDir);
  fs.mkdirSync(paths.seedDir);
  prepareClient(paths.staticDir);

  const seeding = await startPortal({
    port: await freePort(),
    logFile: path.join(paths.seedDir, 'portal.log'),
    env: {
      ...PORTAL_ENV,
      DATABASE_URL: `sqlite:${paths.seedDatabase}`,
      DATA_DIR: paths.seedData,
      STATIC_DIR: paths.staticDir,
      SEED_DEMO_DATA: 'true',
    },
  });
  // Stopped cleanly, the portal closes the database: its write-ahead log is folded into the file.
  await stopPortal(seeding.process);
  if (seeding.process.exitCode !== 0) throw new Error(`The seeding portal exited with ${seeding.process.exitCode}`);
  console.log(`e2e: demo data seeded; each worker starts a portal on a copy. Files in ${runDir}`);
}
