/**
 * One server of the API benchmark (bench/api.ts), in a process of its own so that the load
 * generator and the other server do not share its event loop. Prints `PORT <n>` once listening.
 *
 *   portal <env.json>                 the portal as main.ts builds it, on the benchmark's database
 *   portal-jobs <env.json>            the same, running its background work too (bench/jobs.ts)
 *   bare <env.json> <routes.json>     a bare Fastify app: per route, the very SQL the portal ran for
 *                                     it (captured by bench/api.ts), as prepared statements kept
 *                                     for reuse, and the rows as JSON
 */
import fs from 'node:fs';
import Fastify from 'fastify';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';

export interface CapturedRoute {
  name: string;
  queries: { sql: string; parameters: unknown[] }[];
}

const [mode, envFile, routesFile] = process.argv.slice(2);
const env = JSON.parse(fs.readFileSync(envFile, 'utf8')) as Record<string, string>;

async function portal(withJobs: boolean) {
  const app = await buildApp(loadConfig(env), { startBackgroundWork: withJobs });
  return app.listen({ host: '127.0.0.1', port: 0 });
}

async function bare() {
  const routes = JSON.parse(fs.readFileSync(routesFile, 'utf8')) as CapturedRoute[];
  const app = Fastify();
  const url = env.DATABASE_URL;
  if (url.startsWith('postgres')) {
    pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    for (const route of routes) {
      const statements = route.queries.map((query, i) => ({ name: `${route.name}-${i}`, ...query }));
      app.get(`/${route.name}`, async () => {
        const client = await pool.connect();
        try {
          const results = [];
          for (const { name, sql, parameters } of statements) {
            results.push((await client.query({ name, text: sql, values: parameters })).rows);
          }
          return results;
        } finally {
          client.release();
        }
      });
    }
    app.addHook('onClose', () => pool.end());
  } else {
    const database = new SQLite(url.replace(/^sqlite:(\/\/)?/, ''));
    database.pragma('journal_mode = WAL');
    database.pragma('cache_size = -65536');
    for (const route of routes) {
      const statements = route.queries.map(({ sql, parameters }) => ({ statement: database.prepare(sql), parameters }));
      app.get(`/${route.name}`, async () =>
        statements.map(({ statement, parameters }) =>
          statement.reader ? statement.all(parameters) : (statement.run(parameters), []),
        ),
      );
    }
  }
  return app.listen({ host: '127.0.0.1', port: 0 });
}

const address = mode === 'bare' ? await bare() : await portal(mode === 'portal-jobs');
console.log(`PORT ${new URL(address).port}`);
// A clean exit on SIGINT, so that node --cpu-prof writes its profile.
process.on('SIGINT', () => process.exit(0));
