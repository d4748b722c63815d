import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Methods named as they are in the histogram; anything else (WebDAV's, say) as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times every answer into `portal_http_request_duration_seconds` (server/metrics.ts). The route label
 * is the route's template as Fastify declared it (`/api/customers/:id`), never the requested URL: an
 * id, a page path or a query string (a reset token) would be a new series each time, and a secret
 * in the metrics. A path no route has is `unmatched`, whatever it was.
 */
async function metricsPlugin(app: FastifyInstance) {
  const { httpRequestDuration } = app.ctx.metrics;
  // Requests under way, for the job runner: bulk background work yields to them (decision 075). An
  // answer ends with `finish`, an abandoned one with `close`; each request counts once either way.
  const foreground = app.ctx.foreground;
  app.addHook('onRequest', async (_request, reply) => {
    foreground.requests++;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      foreground.requests--;
    };
    reply.raw.once('finish', end);
    reply.raw.once('close', end);
  });
  app.addHook('onResponse', async (request, reply) => {
    httpRequestDuration.observe(
      {
        method: METHODS.has(request.method) ? request.method : 'other',
        route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
}

export const requestMetrics = fp(metricsPlugin, { name: 'request-metrics' });
