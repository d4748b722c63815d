import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ErrorBody } from '../../common/api/errors';
import type { Config } from '../config';
import { isDatabaseUnavailable } from '../db';
import { HttpError } from '../http-error';
import { applySecurityHeaders, securityHeaders } from './security';

const CODE_BY_STATUS: Record<number, string> = {
  400: ERROR_CODES.validation,
  401: ERROR_CODES.unauthenticated,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  413: ERROR_CODES.payloadTooLarge,
  414: ERROR_CODES.uriTooLong,
  415: ERROR_CODES.unsupportedMediaType,
  429: ERROR_CODES.rateLimited,
};

/** Fastify's own refusals of a malformed request, in words a client developer can act on. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object or no Content-Type',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type: send JSON as application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_BAD_URL: 'The URL is not validly percent-encoded',
  FST_ERR_MAX_PARAM_LENGTH: 'A segment of the URL path is too long',
};

/**
 * PostgreSQL's "data exception" class (22xxx): a value it cannot store, such as a NUL character in
 * text (22021) or a number beyond a column's range (22003). Schemas bound every input so this should
 * not happen; if one is missed, the caller still gets a 400 for their input rather than a 500.
 */
function isDatabaseDataException(error: unknown): boolean {
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code) && typeof severity === 'string';
}

function errorBody(code: string, message: string, details?: ErrorBody['error']['details']): ErrorBody {
  return { error: { code, message, ...(details ? { details } : {}) } };
}

/** How long a client is asked to wait before trying again while the database is unreachable. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = '5';

/**
 * The status and body for any error; `log` is told of the ones that point at a fault of ours. A
 * request a route's schema refuses arrives as the HttpError of server/validation.ts: message keys in
 * its details, English in its message.
 */
export function describeError(
  error: FastifyError | HttpError | Error,
  log: FastifyRequest['log'],
): { status: number; body: ErrorBody; headers?: Record<string, string> } {
  if (error instanceof HttpError) {
    return {
      status: error.statusCode,
      body: errorBody(error.code, error.message, error.details),
      ...(error.headers ? { headers: error.headers } : {}),
    };
  }
  if (isDatabaseUnavailable(error)) {
    // PostgreSQL restarting, or out of reach: the request may succeed in a moment (the pool opens new
    // connections as soon as it answers again). Not a fault of ours, so no stack in the log.
    log.warn({ reason: error.message }, 'database unavailable');
    return {
      status: 503,
      body: errorBody(ERROR_CODES.unavailable, 'The service is unavailable for a moment; try again in a few seconds'),
      headers: { 'Retry-After': UNAVAILABLE_RETRY_AFTER_SECONDS },
    };
  }
  if (isResponseSerializationError(error)) {
    log.error({ err: error }, 'response did not match its schema');
    return { status: 500, body: errorBody(ERROR_CODES.internal, 'An error has occurred') };
  }
  if (isDatabaseDataException(error)) {
    log.warn({ err: error }, 'the database refused a value of the request: a schema bound is missing');
    return {
      status: 400,
      body: errorBody(
        ERROR_CODES.validation,
        'A value of the request is out of range or contains characters not allowed',
      ),
    };
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const fastifyCode = (error as FastifyError).code;
    const message = (fastifyCode && FASTIFY_MESSAGES[fastifyCode]) || error.message || 'Invalid request';
    return { status, body: errorBody(CODE_BY_STATUS[status] ?? ERROR_CODES.validation, message) };
  }
  log.error({ err: error }, 'unhandled error');
  return { status: 500, body: errorBody(ERROR_CODES.internal, 'An error has occurred') };
}

/** One error body everywhere: `{ error: { code, message, details? } }`; never a stack trace. */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    const { status, body, headers } = describeError(error, request.log);
    if (headers) reply.headers(headers);
    return reply.status(status).send(body);
  });
}

export const errors = fp(errorsPlugin, { name: 'errors' });

/**
 * Errors Fastify meets before routing (a badly encoded URL, an over-long path parameter). They skip
 * the error handler and every hook, so the body and the security headers are set here.
 */
export function frameworkErrorHandler(config: Config): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = describeError(error, request.log);
    // the body is JSON: its headers are a JSON answer's
    reply.header('Content-Type', 'application/json; charset=utf-8');
    applySecurityHeaders(reply, config, request.url);
    void reply.status(status).send(body);
  };
}

/**
 * A request Node's HTTP parser refuses (garbage, headers too large, too slow) never reaches Fastify;
 * it is answered here on the socket, in the same shape as every other error.
 */
export function clientErrorHandler(config: Config): NonNullable<FastifyServerOptions['clientErrorHandler']> {
  return (error, socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return;
    const [status, reason, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request headers are too large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'The request took too long to arrive']
          : [400, 'Bad Request', 'Malformed HTTP request'];
    const body = JSON.stringify(errorBody(ERROR_CODES.validation, message));
    const headers = Object.entries({
      ...securityHeaders(config, '/api/', 'json'),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(body)),
      Connection: 'close',
    }).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.end(`HTTP/1.1 ${status} ${reason}\r\n${headers.join('')}\r\n${body}`);
  };
}
