import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../../common/api/errors';
import { BOOT_SCRIPT } from '../../common/boot-loader';
import type { Config } from '../config';
import { badRequest } from '../http-error';
import { FORM, mediaType } from './bodies';

const CSP = [
  "default-src 'self'",
  // and the HTML pages' loader, inline so that it can say the page's own scripts did not come
  `script-src 'self' 'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`,
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
 * A JSON answer's policy: nothing of its own may load or run, and no page may frame it. A JSON body
 * is data that a script of the portal reads, never a page; opened in a tab, it runs nothing under
 * `default-src 'none'`. The page headers (the full CSP, Referrer-Policy, Cross-Origin-Opener-Policy,
 * Permissions-Policy: 500 bytes) govern what a document loads, links to and opens; a JSON answer,
 * sent on every request of a signed-in page, needs only this, nosniff (its type is taken as sent,
 * never sniffed into HTML or a script), X-Frame-Options for browsers without frame-ancestors,
 * Cache-Control and HSTS (decision 093).
 */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

/** What an answer is, for its headers: a JSON body, or anything else (a page, a file, a redirect). */
type AnswerKind = 'json' | 'page';

/** A JSON answer's media type (application/json, with or without a charset). */
const isJsonType = (contentType: unknown): boolean =>
  typeof contentType === 'string' && contentType.startsWith('application/json');

/**
 * The headers every answer carries, whatever produced it: a route, an error, the 404 handler, a
 * static file, or an error Fastify answers before any hook runs (see app.ts, frameworkErrors). A
 * page, a file or a redirect gets the full set; a JSON answer the few that protect data (JSON_CSP).
 * The API reference (/api/docs) replaces the CSP with one that allows its own inline scripts by hash.
 */
export function securityHeaders(config: Config, url: string, kind: AnswerKind = 'page'): Record<string, string> {
  const headers: Record<string, string> =
    kind === 'json'
      ? { 'Content-Security-Policy': JSON_CSP, 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff' }
      : {
          'Content-Security-Policy': CSP,
          'X-Frame-Options': 'DENY',
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'strict-origin-when-cross-origin',
          'Cross-Origin-Opener-Policy': 'same-origin',
          'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
        };
  if (config.secureCookies) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  if (url.startsWith('/api/')) headers['Cache-Control'] = 'no-store';
  return headers;
}

/** Sets the security headers for the answer as it stands: JSON when its Content-Type says so. */
export function applySecurityHeaders(reply: FastifyReply, config: Config, url: string): void {
  reply.headers(securityHeaders(config, url, isJsonType(reply.getHeader('content-type')) ? 'json' : 'page'));
}

/** localhost and 127.0.0.1 name the same machine; a developer opens the portal at either. */
const LOOPBACK_TWIN: Record<string, string> = { localhost: '127.0.0.1', '127.0.0.1': 'localhost' };

/**
 * The origins whose pages may change state: the configured one, and in development also its loopback
 * twin on the same scheme and port (http://127.0.0.1:3000 for http://localhost:3000 and back), so a
 * portal opened by either name lets its user sign in. Production and tests accept the configured
 * origin only.
 */
export function acceptedOrigins(config: Pick<Config, 'baseUrl' | 'env'>): ReadonlySet<string> {
  const own = new URL(config.baseUrl);
  const origins = new Set([own.origin]);
  const twin = LOOPBACK_TWIN[own.hostname];
  if (config.env === 'development' && twin) {
    const other = new URL(own);
    other.hostname = twin;
    origins.add(other.origin);
  }
  return origins;
}

/**
 * Security headers on every answer, and refusal of state-changing requests sent by another site's
 * page (Origin / Sec-Fetch-Site), so a session cookie cannot be ridden from elsewhere.
 *
 * A request with neither header passes, cookie or not (docs/decisions/002): every browser sends Origin
 * with each POST, PUT, PATCH and DELETE, so only a non-browser client omits both, and such a client
 * holds its own session, never a victim's. Only JSON bodies are parsed (plugins/bodies.ts), so a
 * cross-site form or a "simple" text/plain fetch could not produce a valid request anyway.
 *
 * Two kinds of route are exempt, each by its own declaration (docs/decisions/010): a webhook
 * (`config.webhook`: a server, not a browser, posts it; its signature is its proof) and a form post
 * declared `formPost: { crossSite: true }` (an identity provider's page posts it), and then only
 * for a form body.
 *
 * An HTTP/1.1 request without a Host header is refused here rather than by Node (which would answer
 * a bare 400 without these headers; app.ts turns Node's check off).
 */
async function securityPlugin(app: FastifyInstance) {
  const { config } = app.ctx;
  const ownOrigins = acceptedOrigins(config);

  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      throw badRequest('The Host header is missing');
    }
    if (!UNSAFE_METHODS.has(request.method)) return;
    const { webhook, formPost } = request.routeOptions.config;
    if (webhook) return;
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    const crossSite = site === 'cross-site' || site === 'same-site';
    const foreignOrigin = origin !== undefined && !ownOrigins.has(origin);
    if (crossSite || foreignOrigin) {
      if (formPost?.crossSite && mediaType(request) === FORM) return;
      return reply.status(403).send({
        error: { code: ERROR_CODES.crossOrigin, message: 'Cross-origin requests are not allowed' },
      });
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    applySecurityHeaders(reply, config, request.url);
    return payload;
  });
}

export const security = fp(securityPlugin, { name: 'security' });
