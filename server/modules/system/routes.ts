import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PublicConfig } from '../../../common/api/auth';
import { ping } from '../../db';
import { access } from '../../plugins/access';

const Health = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unreachable']) });

export async function systemRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { config, db } = app.ctx;

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
    }),
  );
}
