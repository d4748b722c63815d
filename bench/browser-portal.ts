/**
 * What the browser benchmarks (lcp, customer-page, lighthouse) share: Debian's Chromium with the
 * flags that keep it from reaching the network on its own, and a portal started on a fresh SQLite
 * database in a folder of the run, serving the built client, as the journeys start theirs.
 */
import path from 'node:path';
import { chromium } from '@playwright/test';
import { freePort, prepareClient, type PortalServer, startPortal } from '../e2e/helpers/portal-server';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

/**
 * A portal in `runDir`: its database (`DATABASE_URL` in `env`, else a new SQLite file there), its
 * data, its copy of the built client and its log. `env` adds to or replaces the defaults.
 */
export async function startBenchPortal(runDir: string, env: Record<string, string> = {}): Promise<PortalServer> {
  return startPortal({
    port: await freePort(),
    logFile: path.join(runDir, 'portal.log'),
    env: {
      NODE_ENV: 'test',
      DATABASE_URL: `sqlite:${path.join(runDir, 'bench.db')}`,
      DATA_DIR: path.join(runDir, 'data'),
      STATIC_DIR: prepareClient(path.join(runDir, 'dist')),
      SMTP_URL: 'smtp://127.0.0.1:9',
      DEV_MAILBOX: 'false',
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'false',
      ...env,
    },
  });
}
