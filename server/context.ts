import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { DB, DialectName } from './db';
import type { Captcha } from './integrations/captcha';
import type { PaymentProviderClient } from './integrations/payments/types';
import type { ArtifactStorage } from './integrations/storage/types';
import type { JobRunner } from './jobs/types';
import type { Mailer } from './mail/types';
import type { AppMetrics } from './metrics';

/**
 * pino's interface, as Fastify hands it out. Only its type comes from Fastify: services log through
 * it whether they run under a route, a job or the command line.
 */
export type Logger = FastifyBaseLogger;

/**
 * What every service needs. Services take `(ctx, actor, input)` and nothing from Fastify, so routes,
 * background jobs and the operator command line call the same code. Only types live here: one
 * context is built by createContext (server/compose.ts), which buildApp calls (`app.ctx`) and the
 * command line calls for its own.
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

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
