import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Path parameters whose value is a secret (an invitation key): the request log shows
     * `[redacted]` in their place. `server/log.test.ts` refuses a route whose parameter could be
     * a secret and is neither declared here nor known to be an identifier.
     */
    secretParams?: readonly string[];
  }
}

/**
 * What the request logs may show. Fastify logs every request's URL; some URLs carry a secret:
 * a reset link is /{locale}/reset-password/{token}, an invitation /{locale}/invitation/{key}, a
 * sign-up confirmation /{locale}/sign-up/confirmation/{key}, an e-mail change
 * /{locale}/confirm-email/{token}, and GET /api/auth/check-password-reset
 * takes the token as a query parameter. An OpenID Connect interaction's uid opens a sign-in under
 * way: it is the segment after /oidc/interaction/ and /oidc/auth/ (the provider's resume address,
 * which no route pattern of the portal describes) and the login page's `?interaction=`. Those parts
 * are replaced before anything is written.
 */
export const REDACTED = '[redacted]';

/** Query parameters whose value is a secret, on any route. */
const SECRET_PARAM = /token|secret|password|passwd|key|signature|session|code|auth|interaction/i;
/** Path segments after which the next segment is a secret. */
const SECRET_AFTER_SEGMENT = new Set(['reset-password', 'invitation', 'confirmation', 'confirm-email']);
/** The provider's addresses whose next segment is an interaction's uid, by their first two segments. */
const OIDC_UID_AFTER = new Set(['/oidc/interaction', '/oidc/auth']);

export function redactUrl(url: string, route?: { pattern: string; secretParams: readonly string[] }): string {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? null : url.slice(queryAt + 1);

  const segments = path.split('/');
  if (route) {
    const pattern = route.pattern.split('/');
    pattern.forEach((segment, i) => {
      if (segment.startsWith(':') && route.secretParams.includes(segment.slice(1)) && i < segments.length)
        segments[i] = REDACTED;
    });
  }
  for (let i = 1; i < segments.length; i++) {
    if (SECRET_AFTER_SEGMENT.has(segments[i - 1].toLowerCase()) && segments[i] !== '') segments[i] = REDACTED;
  }
  if (segments.length > 3 && segments[3] !== '' && OIDC_UID_AFTER.has(segments.slice(0, 3).join('/').toLowerCase()))
    segments[3] = REDACTED;
  let safe = segments.join('/');
  if (query !== null) {
    const pairs = query.split('&').map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals === -1 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // a malformed name is logged as it came, and judged on its raw text
      }
      return equals !== -1 && SECRET_PARAM.test(name) ? `${rawName}=${REDACTED}` : pair;
    });
    safe += `?${pairs.join('&')}`;
  }
  return safe;
}

/** Fastify's request serializer, with the URL's secrets removed. Headers are not logged at all. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: urlToLog(request),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** A response that took this long is logged at warn, so that LOG_LEVEL=warn still shows it. */
export const SLOW_REQUEST_MS = 1000;

/**
 * The request log (docs/operations.md, decision 090): one line per response, written when it is
 * sent, instead of Fastify's two (one on arrival, one on completion), with flat fields that go
 * through neither a serializer nor the redaction of nested objects. Level by outcome: info for an
 * answer, warn for one slower than SLOW_REQUEST_MS, error for a response that failed to be sent;
 * the server errors are logged with their cause by plugins/errors.ts. An operator who wants only the
 * slow and failed requests sets LOG_LEVEL=warn. The arrival line stays, at debug: with it a request
 * that never completes can be found.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = reply.elapsedTime;
    // nothing is put together for a line the level leaves out (LOG_LEVEL=warn: only the slow and failed)
    if (!error && ms < SLOW_REQUEST_MS && !infoEnabled(reply.log)) return;
    const line = {
      method: request.method,
      url: urlToLog(request),
      statusCode: reply.statusCode,
      responseTime: Math.round(ms * 10) / 10,
      remoteAddress: request.ip,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (ms >= SLOW_REQUEST_MS) reply.log.warn(line, 'slow request');
    else reply.log.info(line, 'request completed');
  }
}

/** Pino's loggers say whether a level is written; a logger that cannot say is taken to write it. */
const infoEnabled = (log: FastifyBaseLogger) =>
  (log as Partial<{ isLevelEnabled(level: string): boolean }>).isLevelEnabled?.('info') ?? true;

function urlToLog(request: FastifyRequest): string {
  const secretParams = request.routeOptions?.config?.secretParams;
  const pattern = request.routeOptions?.url;
  // the address as it came: a route that hands the request on (the OpenID Connect provider) rewrites
  // request.url, which by the time the answer is logged has lost the prefix the redaction keys on
  return redactUrl(request.originalUrl ?? request.url, secretParams && pattern ? { pattern, secretParams } : undefined);
}
