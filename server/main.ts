import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db';
import { seedDemoData } from './db/seed';

/** Reads the configuration, builds the app, listens, and shuts down gracefully on SIGINT/SIGTERM. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = openDatabase(config.databaseUrl);
  const app = await buildApp(config, { database });
  if (config.seedDemoData) {
    const seeded = await seedDemoData(database.db);
    if (seeded) app.log.info('Empty database: demo data loaded (accounts are listed in README.md)');
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  console.log(`Portal ready at ${config.baseUrl}/`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
