import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', 'client/**/*.test.{ts,tsx}'],
          // Client tests need a DOM; a common/ test that needs Node APIs starts with `// @vitest-environment node`.
          environment: 'jsdom',
          setupFiles: ['client/test/setup.ts'],
        },
      },
      // ---- API tests: add the 'api' project (server/**/*.test.ts, environment node) here ----
    ],
  },
});
