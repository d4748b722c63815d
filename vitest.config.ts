import os from 'node:os';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { textSections } from './vite.config';

const POSTGRES_PASS = process.env.TEST_DB === 'postgres';

/**
 * API test files that do not depend on the database dialect: run once, in the SQLite pass. The rule:
 * no query of the file's tests is shaped by the dialect, because they open no database at all, or
 * one of SQLite files whatever TEST_DB says (a started process, the CLI), or the portal's database
 * only stands behind what they test (a connection, a header, a serializer, a document), never being
 * what they check. Every other file runs in both passes. (docs/decisions/057)
 */
const DIALECT_FREE_API_TESTS = [
  // no database
  'server/integrations/storage/config.test.ts',
  'server/integrations/storage/file-bytes.test.ts',
  'server/integrations/storage/storage.test.ts',
  'server/licence-days.test.ts',
  'server/mail/templates.test.ts',
  'server/markdown.test.ts',
  'server/modules/customizations/schemas.test.ts',
  'server/modules/downloads/nginx.test.ts',
  'server/modules/invitations/keys.test.ts',
  'server/modules/oidc/clients-config.test.ts',
  'server/plugins/page-hints.test.ts',
  'server/stored-file-kinds.test.ts',
  // SQLite files whatever TEST_DB says (the PostgreSQL pass runs on a Node that better-sqlite3's
  // native module is not built for: scripts/test.mjs)
  'server/cli.test.ts',
  'server/main.test.ts',
  'server/main-built.test.ts',
  'server/plugins/platform.test.ts',
  'server/db/sqlite-statements.test.ts',
  'server/jobs/crash.test.ts',
  'server/jobs/sqlite-store.test.ts',
  'server/mail/crash.test.ts',
  // the database only stands behind what is tested
  'server/modules/legal/legal.test.ts',
  'server/security/connections.test.ts',
  'server/security/route-exceptions.test.ts',
  'server/serializer.test.ts',
  'server/validation.test.ts',
];

/**
 * API test files that need a module graph of their own: they replace a module (vi.mock), which would
 * leak into the files run after them in the same worker. Everything else runs with isolate: false.
 */
const ISOLATED_API_TESTS = ['server/modules/auth/enumeration.test.ts'];

/**
 * Unit test files that need a module graph of their own; the others share their worker's modules
 * (isolate: false, as the API tests do). The JSON editor's test watches its lazy chunk load, which a
 * shared graph has loaded once for good; the toasts' test reads Mantine's notification store, which
 * is module state the files before it would have filled; the sign-in pages' prerender test runs
 * React's server renderer, which leaves its mark on every context it provided, so that a client
 * render of the files after it would warn of two renderers at once.
 */
const ISOLATED_UNIT_TESTS = [
  'client/components/JsonEditor.test.tsx',
  'client/app/Toasts.test.tsx',
  'client/public/prerender.test.tsx',
];

/** What both unit projects share. */
const unit = {
  include: ['common/**/*.test.ts', 'client/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'eslint.config.test.ts'],
  environment: 'node' as const,
  // client tests opt into jsdom with a `// @vitest-environment jsdom` first line
  setupFiles: ['client/test/setup.ts'],
  testTimeout: 20_000,
};

/** What both API projects share. */
const api = {
  environment: 'node' as const,
  // migrations applied once per run, to a template each test app copies (server/test/global-setup.ts)
  globalSetup: ['server/test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/** Files the pass leaves out: the dialect-free ones in the PostgreSQL pass; the PostgreSQL-only ones in the SQLite one. */
const leftOutOfThisPass = POSTGRES_PASS
  ? DIALECT_FREE_API_TESTS
  : // The database outage test starts a PostgreSQL server of its own, the two-node test shares a
    // PostgreSQL database between two processes, and the dropped-connection test ends a PostgreSQL
    // server's backend, and the pg-boss store's plan test reads pg-boss's statements: they run in the
    // PostgreSQL pass only.
    [
      'server/db/outage.test.ts',
      'server/jobs/nodes.test.ts',
      'server/db/dropped-connection.test.ts',
      'server/jobs/pg-boss-store.test.ts',
    ];

export default defineConfig({
  test: {
    // One worker per core: vitest's default leaves one core out, which on the two-core CI machine
    // ran every file on one worker while the database and the other core waited.
    maxWorkers: os.availableParallelism(),
    projects: [
      {
        plugins: [react(), textSections],
        test: {
          ...unit,
          name: 'unit',
          exclude: [...configDefaults.exclude, ...ISOLATED_UNIT_TESTS],
          // Each test renders into a document cleaned after it (client/test/setup.ts) with fake APIs
          // of its own: the files of a worker share one module graph and one jsdom set-up instead of
          // loading React, Mantine and the pages again for each file.
          isolate: false,
        },
      },
      {
        plugins: [react(), textSections],
        test: { ...unit, name: 'unit-isolated', include: ISOLATED_UNIT_TESTS },
      },
      {
        test: {
          ...api,
          name: 'api',
          // the tests' light password hashing (server/modules/auth/password.ts); not in api-isolated,
          // whose file replaces the hashing library and counts its calls
          setupFiles: ['server/test/setup.ts'],
          include: ['server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED_API_TESTS, ...leftOutOfThisPass],
          // Each test file builds its own apps, each on its own database (SQLite in memory or a
          // PostgreSQL database of its own), and keeps no state in the modules they share: the files
          // of a worker share one module graph instead of loading the portal's modules again each.
          isolate: false,
        },
      },
      {
        test: {
          ...api,
          name: 'api-isolated',
          include: ISOLATED_API_TESTS,
          exclude: [...configDefaults.exclude, ...leftOutOfThisPass],
        },
      },
    ],
  },
});
