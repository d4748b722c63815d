import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PublicConfig } from '../../../common/api/auth';
import { pendingMigrations, ping } from '../../db';
import { access } from '../../plugins/access';

const Health = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unreachable']) });
/** What a load balancer reads: states only, no versions, names or secrets (the probe is public). */
const Ready = z.object({
  status: z.enum(['ready', 'unavailable']),
  database: z.enum(['ok', 'unreachable']),
  migrations: z.enum(['applied', 'pending', 'unknown']),
  draining: z.boolean(),
});

export async function systemRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config, db, dialect, readiness } = app.ctx;
  // once every migration has run it stays so: later probes cost one round trip, as health does
  let migrated = false;

  api.get(
    '/health',
    {
      config: { access: access.public },
      schema: {
        operationId: 'getHealth',
        tags: ['system'],
        summary: 'Liveness and database reachability',
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      try {
        await ping(db);
        return { status: 'ok' as const, database: 'ok' as const };
      } catch {
        return reply.status(503).send({ status: 'degraded' as const, database: 'unreachable' as const });
      }
    },
  );

  api.get(
    '/ready',
    {
      config: { access: access.public },
      schema: {
        operationId: 'getReady',
        tags: ['system'],
        summary: 'Readiness: the database answers, the migrations are applied and the node is not draining',
        response: { 200: Ready, 503: Ready },
      },
    },
    async (_request, reply) => {
      let database: 'ok' | 'unreachable' = 'ok';
      let migrations: 'applied' | 'pending' | 'unknown' = 'unknown';
      try {
        await ping(db);
        migrated ||= (await pendingMigrations(db, dialect)).length === 0;
        migrations = migrated ? 'applied' : 'pending';
      } catch {
        database = 'unreachable';
      }
      const ready = database === 'ok' && migrations === 'applied' && !readiness.draining;
      return reply
        .status(ready ? 200 : 503)
        .send({ status: ready ? 'ready' : 'unavailable', database, migrations, draining: readiness.draining });
    },
  );

  api.get(
    '/config',
    {
      config: { access: access.public },
      schema: {
        operationId: 'getPublicConfig',
        tags: ['system'],
        summary: 'Public settings the web client needs',
        response: { 200: PublicConfig },
      },
    },
    async () => ({
      captcha: config.recaptcha
        ? { provider: 'recaptcha' as const, siteKey: config.recaptcha.siteKey }
        : { provider: 'builtin' as const },
      supportUrl: config.supportUrl,
      academyUrl: config.academyUrl,
      telemetryUrl: config.telemetryUrl,
      contactEmail: config.contactEmail,
      legalBaseUrl: config.legalBaseUrl,
      devMailbox: config.devMailbox,
      selfServiceSignup: config.selfServiceSignup,
      supportDesk: config.supportDesk.jwtSecret !== null,
    }),
  );
}
