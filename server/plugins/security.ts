import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../../common/api/errors';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Mantine sets CSS variables and positions through style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Security headers on every answer, and refusal of state-changing requests sent by another site's
 * page (Origin / Sec-Fetch-Site), so a session cookie cannot be ridden from elsewhere.
 */
async function securityPlugin(app: FastifyInstance) {
  const ownOrigin = new URL(app.ctx.config.baseUrl).origin;

  app.addHook('onRequest', async (request, reply) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const crossSite = site === 'cross-site' || site === 'same-site';
    const foreignOrigin = origin !== undefined && origin !== 'null' && origin !== ownOrigin;
    if (crossSite || foreignOrigin || origin === 'null') {
      return reply.status(403).send({
        error: { code: ERROR_CODES.crossOrigin, message: 'Cross-origin requests are not allowed' },
      });
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // The API reference page brings its own scripts and sets its own policy.
    if (!request.url.startsWith('/api/docs')) reply.header('Content-Security-Policy', CSP);
    reply.header('X-Frame-Options', 'DENY');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
    if (app.ctx.config.secureCookies) reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}

export const security = fp(securityPlugin, { name: 'security' });
