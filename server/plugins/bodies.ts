import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../../common/api/errors';
import { GIVEN_ONCE } from '../../common/api/common';
import { HttpError } from '../http-error';
import { invalidField } from '../validation';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A payment provider's webhook: the body stays the bytes that were signed (a Buffer, whatever its
     * type) and no Origin / Sec-Fetch-Site check applies. The route must verify the signature
     * before anything else, and declare `access.public` (the signature is its access rule).
     */
    webhook?: true;
    /**
     * Accepts `application/x-www-form-urlencoded` (parsed into an object of strings), for OpenID
     * Connect. With `crossSite: true` such a form may come from another site's page (the identity
     * provider's `form_post` response): the route then checks `state` itself, and gets no session
     * cookie (SameSite=Lax keeps it off cross-site posts).
     */
    formPost?: { crossSite: boolean };
  }
}

export const FORM = 'application/x-www-form-urlencoded';

/** Whether the request carries a body at all (Fastify reads none otherwise). */
export function hasBody(request: FastifyRequest): boolean {
  const { headers } = request;
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function mediaType(request: FastifyRequest): string | null {
  const header = request.headers['content-type'];
  return header ? header.split(';')[0].trim().toLowerCase() : null;
}

/** A form's fields; a field given twice is refused rather than guessed between. */
function parseForm(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    if (Object.hasOwn(fields, name)) throw invalidField(name, GIVEN_ONCE);
    fields[name] = value;
  }
  return fields;
}

const unsupported = () =>
  new HttpError(415, ERROR_CODES.unsupportedMediaType, 'Unsupported Content-Type: send JSON as application/json');

/**
 * The bodies the API reads: JSON everywhere; a form only on routes that declare `formPost`; raw
 * bytes on webhooks. Without a text/plain parser, the one content type a cross-site page may send
 * without a preflight besides forms is refused (415) before any handler runs; forms are refused
 * just as early where not declared (preParsing, after the access rule, before the body is read).
 */
async function bodiesPlugin(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);

  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (request.routeOptions.config.webhook) return done(null, body);
    return parseJson(request, body.toString('utf8'), done);
  });

  app.addContentTypeParser(FORM, { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (request.routeOptions.config.webhook) return done(null, body);
    try {
      done(null, parseForm(body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.addHook('preParsing', async (request, _reply, payload) => {
    const { webhook, formPost } = request.routeOptions.config;
    if (hasBody(request) && mediaType(request) === FORM && !webhook && !formPost) throw unsupported();
    return payload;
  });
}

export const bodies = fp(bodiesPlugin, { name: 'bodies' });
