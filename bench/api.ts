/**
 * API benchmark: latency of the signed-in hot paths (profile, user list with and without a filter)
 * on a database holding many users, through the whole Fastify stack (app.inject: no network), next
 * to a bare Fastify route (no plugin, no database) as the floor, with the queries each request runs.
 * Prints a table per database. Run: npm run bench:api [-- --users 20000 --iterations 300]
 * PostgreSQL is measured too when TEST_DATABASE_URL is set.
 */
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { nowIso } from '../server/db';
import { createUser, login } from '../server/test/factories';
import { createTestApp, request, TEST_DIALECT } from '../server/test/harness';

const { values } = parseArgs({
  options: { users: { type: 'string', default: '20000' }, iterations: { type: 'string', default: '300' } },
});
const USERS = Number(values.users);
const ITERATIONS = Number(values.iterations);

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

let queries = 0;

async function measure(name: string, call: () => Promise<{ statusCode: number }>) {
  for (let i = 0; i < 20; i++) await call(); // warm-up
  const times: number[] = [];
  queries = 0;
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    const response = await call();
    times.push(performance.now() - t0);
    if (response.statusCode !== 200) throw new Error(`${name}: status ${response.statusCode}`);
  }
  const total = performance.now() - started;
  times.sort((a, b) => a - b);
  return {
    name,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    perSecond: (ITERATIONS / total) * 1000,
    queries: queries / ITERATIONS,
  };
}

async function run() {
  const t = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '0' }, {}, {}, { onQuery: () => queries++ });
  const bare = Fastify();
  bare.get('/bare', async () => ({ ok: true }));
  await bare.ready();
  try {
    const { db } = t.app.ctx;
    const now = nowIso();
    const batch = 500;
    for (let offset = 0; offset < USERS; offset += batch) {
      const rows = Array.from({ length: Math.min(batch, USERS - offset) }, (_, i) => ({
        email: `bench-${offset + i}@example.com`,
        fullName: `Bench User ${offset + i}`,
        type: 'supportEngineer' as const,
        status: 'enabled' as const,
        preferredLocale: 'en' as const,
        passwordHash: null,
        createdAt: now,
        updatedAt: now,
      }));
      await db.insertInto('users').values(rows).execute();
    }
    if (t.database.dialect === 'postgres') await sql`analyze`.execute(db);
    const admin = await createUser(db, { type: 'admin' });
    const cookie = await login(t.app, admin.email);

    const results = [
      await measure('bare Fastify route (floor)', () => bare.inject({ url: '/bare' })),
      await measure('GET /api/auth/me', () => request(t.app, cookie, { url: '/api/auth/me' })),
      await measure('GET /api/users (page 1)', () => request(t.app, cookie, { url: '/api/users?pageLength=10' })),
      await measure('GET /api/users (deep page)', () =>
        request(t.app, cookie, { url: `/api/users?pageLength=10&pageOffset=${USERS - 20}` }),
      ),
      await measure('GET /api/users?filter=', () =>
        request(t.app, cookie, { url: '/api/users?pageLength=10&filter=user%201234' }),
      ),
    ];

    console.log(`\n${t.database.dialect}: ${USERS} users, ${ITERATIONS} requests per row`);
    console.log('| request | p50 ms | p95 ms | p99 ms | requests/s | queries per request |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.p50.toFixed(2)} | ${r.p95.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.perSecond.toFixed(0)} | ${r.queries.toFixed(1)} |`,
      );
    }
  } finally {
    await bare.close();
    await t.close();
  }
}

console.log(`dialect under test: ${TEST_DIALECT}`);
await run();
