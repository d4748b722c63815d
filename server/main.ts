import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase, waitForDatabase } from './db';
import { seedDemoData } from './seed/demo';

/** Reads the configuration, builds the app, listens, and shuts down gracefully on SIGINT/SIGTERM. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    // `--allow-new-signing-key` is ALLOW_NEW_SIGNING_KEY=true for this start (docs/security.md)
    config = loadConfig(
      process.argv.includes('--allow-new-signing-key')
        ? { ...process.env, ALLOW_NEW_SIGNING_KEY: 'true' }
        : process.env,
    );
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const database = openDatabase(config.databaseUrl);
  let app: FastifyInstance | null = null;

  // Installed before the slow start (migrations, seed) so that a signal then still closes the
  // database properly instead of killing the process mid-migration.
  let starting: Promise<unknown> = Promise.resolve();
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    const log = app?.log;
    if (log) log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    else console.log(`${signal}: shutting down`);
    // In-flight requests (a long download) get SHUTDOWN_GRACE_SECONDS; then the process gives up on them.
    const graceMs = config.shutdownGraceMs;
    const timer = setTimeout(() => {
      console.error(`Shutdown took longer than ${graceMs / 1000} s; exiting`);
      process.exit(1);
    }, graceMs);
    timer.unref();
    try {
      await starting.catch(() => {});
      if (app) {
        // GET /api/ready answers 503 from now on; with SHUTDOWN_DELAY_SECONDS the node keeps serving
        // meanwhile, so requests a load balancer still sends before it notices are answered
        app.ctx.readiness.draining = true;
        if (config.shutdownDelayMs > 0) {
          app.log.info({ delaySeconds: config.shutdownDelayMs / 1000 }, 'not ready: serving on until the delay ends');
          await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
        }
      }
      // Stops listening and closes idle keep-alive connections; a request on a busy one gets 503 and
      // Connection: close. Waits for requests in flight and background work, stops the mailer.
      await app?.close();
      await database.close();
      if (app) app.log.info('shut down: requests finished, database closed');
      else console.log('shut down');
      process.exit(0);
    } catch (error) {
      console.error('Shutdown failed:', error);
      process.exit(1);
    }
  };
  // A repeated signal is ignored rather than left to Node's default (exit at once, mid-drain).
  process.on('SIGINT', (signal) => void shutdown(signal));
  process.on('SIGTERM', (signal) => void shutdown(signal));

  starting = (async () => {
    // A start while the database is down (or still starting) waits for it instead of exiting.
    await waitForDatabase(database, {
      stop: () => closing,
      onRetry: (error, delayMs) =>
        console.error(`Database unreachable (${error.message}); trying again in ${delayMs / 1000} s`),
    });
    if (closing) return;
    app = await buildApp(config, { database });
    if (config.seedDemoData) {
      const seeded = await seedDemoData(database.db, new Date(), config.sessionSecret, app.ctx.storage);
      if (seeded) app.log.info('Empty database: demo data loaded (accounts are listed in README.md)');
    } else if (config.env === 'production') {
      app.log.info(
        'Production: no demo data is loaded; create the first administrator with npm run cli -- create-user',
      );
    }
    if (config.env === 'production' && !config.payments.stripe && config.payments.available) {
      // allowed only by PAYMENT_TEST_CHECKOUT=true (config.ts): said at every start
      app.log.warn(
        'PAYMENT_TEST_CHECKOUT: self-service customers "pay" through the built-in test checkout; nobody pays',
      );
    }
    if (config.env === 'production' && !config.instances.orchestrator) {
      // a portal that sells no cloud instance needs no orchestrator; one that does must not pretend
      app.log.warn('Production: no INSTANCE_ORCHESTRATOR_URL, cloud instances are only simulated (docs/instances.md)');
    }
    if (closing) return;
    await app.listen({ host: config.host, port: config.port });
    console.log(`Portal ready at ${config.baseUrl}/`);
  })();
  await starting;
}

main().catch((error) => {
  // a refusal at start (a signing key the secrets do not open) is a message, not a stack trace
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
