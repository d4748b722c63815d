import type { FastifyInstance } from 'fastify';
import { access } from '../../plugins/access';

/**
 * `GET /metrics`: the Prometheus text format (server/metrics.ts), outside /api like the pages: it is
 * for a Prometheus server, not part of the API, so the API document leaves it out. The access rule
 * takes the METRICS_TOKEN and nothing else; without a token configured the route answers 404, and
 * the metrics are served, if at all, on the METRICS_BIND listener (docs/operations.md).
 */
export async function metricsRoutes(app: FastifyInstance) {
  const { metrics } = app.ctx;
  app.get('/metrics', { config: { access: access.metricsToken } }, async (_request, reply) =>
    reply
      .header('Cache-Control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.render()),
  );
}
