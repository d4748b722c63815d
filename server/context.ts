import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { DatabaseHandle, DB, DialectName } from './db';
import { type Captcha, createCaptcha } from './integrations/captcha';
import { createPayments, type PaymentProviderClient } from './integrations/payments';
import { type ArtifactStorage, createStorage } from './integrations/storage';
import { createJobs, type JobRunner } from './jobs';
import { createMailer } from './mail';
import type { Mailer } from './mail/types';
import { EMAIL_ERROR_TEMPLATES, emitNotification } from './modules/notifications/events';
import { type AppMetrics, createMetrics } from './metrics';

/**
 * pino's interface, as Fastify hands it out. Only its type comes from Fastify: services log through
 * it whether they run under a route, a job or the command line.
 */
export type Logger = FastifyBaseLogger;

/**
 * What every service needs. Services take `(ctx, actor, input)` and nothing from Fastify, so routes,
 * background jobs and the operator command line call the same code. buildApp makes one, reachable
 * as `app.ctx`; the command line makes its own with createContext.
 */
export interface AppContext {
  config: Config;
  db: DB;
  dialect: DialectName;
  mail: Mailer;
  captcha: Captcha;
  log: Logger;
  jobs: JobRunner;
  /** where artifacts' bytes live (integrations/storage) */
  storage: ArtifactStorage;
  /** this app's Prometheus metrics (server/metrics.ts); its own registry, never a global one */
  metrics: AppMetrics;
  /** the payment provider of self-service subscriptions: Stripe, or the built-in test checkout */
  payments: PaymentProviderClient;
  /** `draining` from SIGTERM on: `GET /api/ready` answers 503 so load balancers send no new requests */
  readiness: { draining: boolean };
  /** requests this node is answering (plugins/metrics.ts counts them); bulk background work yields to them */
  foreground: { requests: number };
}

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
      // the customers' managers hear of a member's mail that bounced, never of one telling of a bounce
      onUndeliverable: async (executor, mail) => {
        if (EMAIL_ERROR_TEMPLATES.includes(mail.template)) return;
        await emitNotification(ctx, executor, { type: 'emailError', email: mail.to, error: mail.error });
      },
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

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
