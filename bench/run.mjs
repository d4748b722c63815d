#!/usr/bin/env node
// Runs bench/api.ts on SQLite, then on PostgreSQL when TEST_DATABASE_URL is set.
import { spawnSync } from 'node:child_process';

const args = ['--import', 'tsx', 'bench/api.ts', ...process.argv.slice(2)];
const dialects = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];
for (const dialect of dialects) {
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, TEST_DB: dialect } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
if (!process.env.TEST_DATABASE_URL) console.log('\nPostgreSQL not measured: TEST_DATABASE_URL is not set');
