import { PassThrough } from 'node:stream';
import type { ServerOptions } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../../common/api/errors';
import type { Config } from '../config';
import { HttpError } from '../http-error';
import { hasBody } from './bodies';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How long this route's body may take to arrive, instead of BODY_TIMEOUT_MS: for a route that
     * streams large uploads (artifacts), together with its own `bodyLimit`.
     */
    bodyTimeoutMs?: number;
  }
}

/**
 * Node's HTTP server options for the headers: Node answers a request whose headers have not all
 * arrived within HEADERS_TIMEOUT_MS with a 408 (plugins/errors.ts, clientErrorHandler). Node checks
 * its connections on an interval (30 s by default), so the interval follows the timeout.
 *
 * Node's own `requestTimeout` (the whole request) stays off, as Fastify leaves it: it is one value
 * for every route, so it would either cut large uploads or leave a stalled JSON body open for as long
 * as the largest upload may take. The body is timed per route below instead.
 */
export function nodeServerTimeouts(config: Config): ServerOptions {
  const { headersMs } = config.timeouts;
  return {
    headersTimeout: headersMs,
    requestTimeout: 0,
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(headersMs / 4))),
  };
}

/**
 * A body must have arrived within the route's limit (BODY_TIMEOUT_MS unless the route declares
 * `bodyTimeoutMs`), counted from the end of the headers. A client that stops sending, or drips a few
 * bytes at a time, gets a 408 in the one error body and the connection is closed, instead of holding
 * it (and a request slot) open for ever.
 *
 * The body reaches the parser through a pass-through stream that this hook owns, so the timeout can
 * fail that stream: the parser then reports the error like any other, through the error handler.
 */
async function timeoutsPlugin(app: FastifyInstance) {
  const { bodyMs } = app.ctx.config.timeouts;
  const stopBodyTimers = new WeakMap<FastifyRequest, () => void>();

  app.addHook('preParsing', async (request, reply, payload) => {
    if (!hasBody(request)) return payload;
    const limit = request.routeOptions.config.bodyTimeoutMs ?? bodyMs;
    const body = new PassThrough();
    const timer = setTimeout(() => {
      reply.header('Connection', 'close');
      body.destroy(new HttpError(408, ERROR_CODES.validation, 'The request body took too long to arrive'));
    }, limit);
    timer.unref();
    const stop = () => clearTimeout(timer);
    body.once('end', stop);
    body.once('close', stop);
    // A request answered without its body being read (an unsupported content type, say) ends here:
    // its timer must not fire later on a body nobody reads, where the error would reach no one.
    request.raw.once('close', stop);
    stopBodyTimers.set(request, stop);
    payload.once('error', (error) => body.destroy(error));
    payload.pipe(body);
    return body;
  });

  // An answer sent before its request's body has all arrived (refused by the access rule, a route
  // that does not exist, a content type or a size refused, a timeout) closes the connection: the
  // client stops sending instead of the portal reading, and dropping, the rest for as long as it
  // drips. Node ends the socket once such an answer is out (`Connection: close`).
  app.addHook('onSend', async (request, reply) => {
    if (hasBody(request) && !request.raw.complete) reply.header('Connection', 'close');
  });

  // The unread rest of a timed-out body must not keep the socket: it is closed once the 408 is out.
  app.addHook('onResponse', async (request, reply) => {
    stopBodyTimers.get(request)?.();
    if (reply.statusCode === 408 && !request.raw.complete) request.raw.socket?.destroy();
  });
}

export const timeouts = fp(timeoutsPlugin, { name: 'timeouts' });
