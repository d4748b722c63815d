import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '../../common/api/errors';
import type { AppContext } from '../context';
import { isUniqueViolation } from '../db';
import { sealText, unsealText } from '../security/seal';
import { HttpError } from '../http-error';
import { invalidField } from '../validation';
import * as store from './idempotency-store';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A creating route: a request sent again with the same `Idempotency-Key` header (and the same
     * body) answers the first request's result instead of creating a second entity.
     */
    idempotent?: true;
  }
}

const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long a key's answer is kept (and replayed): a day, as Stripe does. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** A first request still marked under way after this long died with its process: its key is free. */
const ABANDONED_AFTER_MS = 5 * 60_000;
/** Printable ASCII, as UUIDs and Stripe's keys are. */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

function callerOf(request: FastifyRequest): string {
  if (request.user) return `user:${request.user.id}`;
  if (request.productToken) return `token:${request.productToken.id}`;
  return `anonymous:${request.ip}`;
}

function hashOf(request: FastifyRequest): string {
  return crypto
    .createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}

/**
 * `Idempotency-Key` on the routes that declare `idempotent` (docs/decisions/047), as Stripe's API and
 * the IETF draft have it. The first request with a key claims it (a row, before the handler runs);
 * its answer is stored when sent, unless it is a 5xx (the key is then freed, so a retry can
 * succeed). Again with the same key and request: the stored answer, with `Idempotent-Replayed:
 * true`. The same key with another request: 422. While the first is still under way: 409.
 * Keys are the caller's own: a user's, a product token's, or an anonymous address's.
 * The stored answer is sealed under the server secret (decision 083): an answer can carry a secret
 * (an invitation's link, a webhook's signing secret) that a copy of the database must not give away.
 */
async function idempotencyPlugin(app: FastifyInstance) {
  const { db, config } = app.ctx;
  const claims = new WeakMap<FastifyRequest, { caller: string; key: string }>();

  const claim = async (caller: string, key: string, requestHash: string) => {
    try {
      await store.insertIdempotencyKey(db, { caller, key, requestHash });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  };

  app.addHook('preHandler', async (request, reply) => {
    if (!request.routeOptions.config.idempotent) return;
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined) return;
    if (typeof key !== 'string' || !VALID_KEY.test(key)) {
      throw invalidField('Idempotency-Key', 'errors.idempotencyKey');
    }
    const caller = callerOf(request);
    const requestHash = hashOf(request);
    if (await claim(caller, key, requestHash)) {
      claims.set(request, { caller, key });
      return;
    }
    let first = await store.findIdempotencyKey(db, caller, key);
    const answer =
      first?.responseBody == null ? '' : unsealText(config.sealSecrets, IDEMPOTENCY_SEAL, first.responseBody);
    if (first && answer === null) {
      // sealed under a secret no longer known: forgotten, as a purged key is
      await store.deleteIdempotencyKey(db, caller, key);
      first = undefined;
    }
    if (!first) {
      // purged in between: the key is free again
      if (await claim(caller, key, requestHash)) claims.set(request, { caller, key });
      else throw inProgress();
      return;
    }
    if (first.requestHash !== requestHash) {
      throw new HttpError(
        422,
        ERROR_CODES.idempotencyKeyReused,
        'This Idempotency-Key was already used with another request: send a new key',
      );
    }
    if (first.status === null) {
      const abandoned = Date.parse(first.createdAt) < Date.now() - ABANDONED_AFTER_MS;
      if (!abandoned) throw inProgress();
      if (!(await store.retakeIdempotencyKey(db, caller, key, first.createdAt))) throw inProgress();
      claims.set(request, { caller, key });
      return;
    }
    return reply
      .code(first.status)
      .header('Idempotent-Replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(answer);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claimed = claims.get(request);
    if (!claimed) return payload;
    claims.delete(request);
    if (reply.statusCode >= 500 || typeof payload !== 'string') {
      await store.deleteIdempotencyKey(db, claimed.caller, claimed.key);
    } else {
      const sealed = sealText(config.sessionSecret, IDEMPOTENCY_SEAL, payload);
      await store.storeIdempotentAnswer(db, claimed.caller, claimed.key, reply.statusCode, sealed);
    }
    return payload;
  });
}

const IDEMPOTENCY_SEAL = { salt: 'idempotency-answers', info: 'portal idempotent answer' };

const inProgress = () =>
  new HttpError(
    409,
    ERROR_CODES.idempotencyInProgress,
    'A request with this Idempotency-Key is still under way; try again in a moment',
  );

/** Keys older than a day are forgotten (a scheduled job). */
export async function purgeIdempotencyKeys(ctx: AppContext, now = Date.now()): Promise<void> {
  await store.deleteIdempotencyKeysBefore(ctx.db, new Date(now - IDEMPOTENCY_TTL_MS).toISOString());
}

/**
 * The OpenAPI document names the header on every route that honours it (a transform of
 * @fastify/swagger, after the schemas' own).
 */
export function documentIdempotencyKey<T extends { schema: object; url: string }>(
  transformed: T,
  route: { config?: { idempotent?: true } },
): T {
  if (!route.config?.idempotent) return transformed;
  return {
    ...transformed,
    schema: {
      ...transformed.schema,
      headers: {
        type: 'object',
        properties: {
          'idempotency-key': {
            type: 'string',
            minLength: 1,
            maxLength: 255,
            description:
              'Optional. The same key and body sent again answer the first result (Idempotent-Replayed: true) instead of creating twice; another body with the key: 422; while the first is under way: 409. Kept a day.',
          },
        },
      },
    },
  };
}

export const idempotency = fp(idempotencyPlugin, { name: 'idempotency' });
