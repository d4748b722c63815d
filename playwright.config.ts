import { defineConfig } from '@playwright/test';

/**
 * End-to-end journeys against one portal started by e2e/global-setup.ts (fresh SQLite database with
 * the demo data, real SMTP peer). Chromium is Debian's: Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  reporter: 'list',
  retries: 0,
  // One server and one database are shared; journeys create their own users, but a single worker
  // keeps the per-IP counters (failed sign-ins, rate limits) predictable.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results',
  use: {
    // Set by globalSetup in the runner process before the workers are forked; workers load this file
    // again and so see it.
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    headless: true,
    locale: 'en-GB',
    timezoneId: 'Europe/Paris',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
  },
});
