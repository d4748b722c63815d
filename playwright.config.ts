import { defineConfig } from '@playwright/test';
import { findChromium } from './scripts/chromium.mjs';

/**
 * End-to-end journeys. e2e/global-setup.ts seeds one SQLite database with the demo data; each worker
 * starts a portal of its own on a copy of it, with an SMTP peer of its own (e2e/fixtures.ts), so the
 * journeys run on two workers without sharing data, mail or per-IP counters. Chromium is Debian's,
 * its headless shell when installed (scripts/chromium.mjs): Playwright never downloads a browser here.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  reporter: 'list',
  retries: 0,
  // Two workers, each with its own portal and database (e2e/fixtures.ts): as many as the CI machine
  // has cores. Any journey may run on either, in any order: each makes the data it changes, or puts
  // back the demo data it changed.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: 'test-results',
  use: {
    // baseURL is each worker's own portal's (e2e/fixtures.ts)
    browserName: 'chromium',
    headless: true,
    locale: 'en-GB',
    // The journeys' user prefers reduced motion, which the portal honours (theme respectReducedMotion):
    // dialogs, menus and toasts open and close without their transitions, so no step waits for an
    // animation. e2e/motion.spec.ts keeps one journey with the default motion.
    reducedMotion: 'reduce',
    timezoneId: 'Europe/Paris',
    launchOptions: {
      executablePath: findChromium() ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
        '--no-first-run',
      ],
    },
    // Recording a trace costs a third of the journeys' time here (a screencast and a DOM snapshot at
    // every step, for every journey, kept only for the failed ones): off by default, the failure's
    // screenshot and its page snapshot (error-context.md) still kept. E2E_TRACE=retain-on-failure
    // records them to diagnose a failure (`npx playwright show-trace`).
    trace: (process.env.E2E_TRACE as 'off' | 'on' | 'retain-on-failure' | 'on-first-retry' | undefined) ?? 'off',
    screenshot: 'only-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
  },
});
