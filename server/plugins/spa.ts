import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../../common/api/errors';

/** Serves the built client with history fallback; unknown /api paths answer the JSON 404. */
async function spaPlugin(app: FastifyInstance) {
  const root = app.ctx.config.staticDir;
  const index = path.join(root, 'index.html');
  const built = fs.existsSync(index);
  if (built) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h', immutable: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url.startsWith('/api/') || url === '/api' || request.method !== 'GET') {
      return reply
        .status(404)
        .send({ error: { code: ERROR_CODES.notFound, message: `No route ${request.method} ${url.split('?')[0]}` } });
    }
    if (!built) {
      return reply.status(503).type('text/plain').send('The web client is not built. Run `npm run build`.');
    }
    // Hashed assets are cached by the browser; the page itself is always revalidated.
    return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html', root);
  });
}

export const spa = fp(spaPlugin, { name: 'spa' });
