import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';
import { textSections } from './vite.config';

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react(), textSections],
        test: {
          name: 'unit',
          include: [
            'common/**/*.test.ts',
            'client/**/*.test.{ts,tsx}',
            'scripts/**/*.test.ts',
            'eslint.config.test.ts',
          ],
          environment: 'node',
          // client tests opt into jsdom with a `// @vitest-environment jsdom` first line
          setupFiles: ['client/test/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['server/**/*.test.ts'],
          // The database outage test starts a PostgreSQL server of its own: it runs once, in the
          // PostgreSQL pass, rather than once per database.
          exclude: [
            ...configDefaults.exclude,
            ...(process.env.TEST_DB === 'postgres' ? [] : ['server/db/outage.test.ts']),
          ],
          environment: 'node',
          // each test file builds its own app on its own database (SQLite in memory or a fresh
          // PostgreSQL database when TEST_DB=postgres), so files may run in parallel
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
