import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { ERROR_CODES, type ErrorBody } from '../../common/api/errors';
import { HttpError } from '../http-error';

/** One error body everywhere: `{ error: { code, message, details? } }`; never a stack trace. */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    const send = (status: number, body: ErrorBody) => reply.status(status).send(body);

    if (error instanceof HttpError) {
      return send(error.statusCode, {
        error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: v.message ?? 'invalid',
      }));
      const first = details[0];
      return send(400, {
        error: {
          code: ERROR_CODES.validation,
          message: first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'Invalid request',
          details,
        },
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return send(500, { error: { code: ERROR_CODES.internal, message: 'An error has occurred' } });
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413) {
      return send(413, { error: { code: ERROR_CODES.payloadTooLarge, message: 'Request body is too large' } });
    }
    if (status === 429) {
      return send(429, { error: { code: ERROR_CODES.rateLimited, message: error.message } });
    }
    if (status >= 400 && status < 500) {
      const code =
        ({ 401: ERROR_CODES.unauthenticated, 403: ERROR_CODES.forbidden, 404: ERROR_CODES.notFound } as const)[
          status as 401 | 403 | 404
        ] ?? ERROR_CODES.validation;
      return send(status, { error: { code, message: error.message } });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(500, { error: { code: ERROR_CODES.internal, message: 'An error has occurred' } });
  });
}

export const errors = fp(errorsPlugin, { name: 'errors' });
