import type { Config } from './config';
import type { AppContext, Logger } from './context';
import type { DatabaseHandle } from './db';
import { createCaptcha } from './integrations/captcha';
import { createPayments } from './integrations/payments';
import { createStorage } from './integrations/storage';
import { declareJobs } from './job-kinds';
import { createJobRunner, type JobRunner, storeFor } from './jobs';
import { createMailer } from './mail';
import { createMetrics } from './metrics';
import { notifyEmailError } from './modules/notifications/email-error';

/**
 * The composition root: where the portal's parts are built and wired to one another. buildApp
 * (server/app.ts), the command line (server/cli.ts), the tests and the benches call it; nothing it
 * builds imports it, so the parts know each other by their types (server/context.ts) alone.
 */

/**
 * The job runner of a portal, on the store of its database (decision 063), with every kind of work
 * declared (server/job-kinds.ts): the command line, the app and the tests queue and run the same kinds.
 */
export function createJobs(deps: {
  database: DatabaseHandle;
  log: Logger;
  context: () => AppContext;
  /** the node is answering requests (bulk kinds yield to them) */
  busy?: () => boolean;
}): JobRunner {
  const { database } = deps;
  const jobs = createJobRunner({ store: storeFor(database), log: deps.log, context: deps.context, busy: deps.busy });
  declareJobs(jobs);
  return jobs;
}

/** The context every service takes (server/context.ts), built on one database. */
export function createContext(deps: { config: Config; database: DatabaseHandle; log: Logger }): AppContext {
  const { config, database, log } = deps;
  const jobs = createJobs({ database, log, context: () => ctx, busy: () => ctx.foreground.requests > 0 });
  const metrics = createMetrics({ config, log, poolUsage: () => database.poolUsage(), jobs });
  const ctx: AppContext = {
    config,
    db: database.db,
    dialect: database.dialect,
    mail: createMailer({
      config,
      db: database.db,
      log,
      jobs,
      metrics,
      // the customers' managers hear of a member's mail that bounced (modules/notifications)
      onUndeliverable: (executor, mail) => notifyEmailError(ctx, executor, mail),
    }),
    captcha: createCaptcha({ config, db: database.db }),
    log,
    jobs,
    storage: createStorage(config),
    metrics,
    payments: createPayments({ config, db: database.db, jobs }),
    readiness: { draining: false },
    foreground: { requests: 0 },
  };
  return ctx;
}
