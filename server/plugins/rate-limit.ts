import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';

/**
 * Per-IP rate limits for the routes that guard accounts (sign-in, password reset, sign-up,
 * invitation acceptance). Nothing else is throttled. The counters live in memory, or in Redis when
 * REDIS_URL is set so that every app node shares them. Keys are request.ip, which honours
 * TRUST_PROXY (IPv6 addresses are grouped by /64 by the plugin).
 */
async function rateLimitPlugin(app: FastifyInstance) {
  const { redisUrl } = app.ctx.config;
  const redis = redisUrl ? await connectRedis(app, redisUrl) : null;
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'portal-rate-limit-' } : {}),
    // A Redis outage must not lock everyone out of signing in.
    skipOnError: true,
  });
}

/** Loads the Redis client only when a store is configured (a portal without one never loads it). */
async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  // Without an offline queue a command fails at once while Redis is away, instead of holding the
  // request until a reconnection.
  const redis = new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  let reported = false;
  redis.on('error', (error) => {
    if (!reported) app.log.warn({ err: error }, 'rate-limit store unreachable; limits are not enforced meanwhile');
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  // Give the store a moment at start, so the first requests are counted too.
  app.addHook('onReady', async () => {
    if (redis.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  });
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return redis;
}

export const rateLimit = fp(rateLimitPlugin, { name: 'rate-limit' });

/**
 * Route config for a limit of `perMinute` requests per IP; 0 switches the limit off.
 * Exceeding it answers 429 with Retry-After and the usual error body (code rate_limited).
 */
export function perMinute(perMinute: number) {
  return perMinute > 0 ? { max: perMinute, timeWindow: 60_000 } : false;
}
