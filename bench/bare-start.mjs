// The bare app of `npm run bench:start`: Fastify and the SQLite driver, one route that reads the
// database, as small as a server of the portal's kind gets. Listens on PORT, opens DATABASE_URL.
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';

const database = new SQLite(process.env.DATABASE_URL.replace(/^sqlite:(\/\/)?/, ''));
const ping = database.prepare('SELECT 1 AS ok');
const app = Fastify();
app.get('/api/health', async () => ({ status: ping.get().ok === 1 ? 'ok' : 'down', database: 'ok' }));
const close = async () => {
  await app.close();
  database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void close());
process.on('SIGINT', () => void close());
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
