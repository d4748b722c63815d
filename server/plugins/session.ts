import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from '../../common/constants';
import type { Actor, SessionUser } from '../actor';
import type { Config } from '../config';
import { cookieLifetimeMs, resolveSession } from '../modules/sessions/service';

export type { SessionUser } from '../actor';

/**
 * The session cookie (decisions.md): an opaque random id in an HttpOnly, SameSite=Lax cookie (Secure
 * behind HTTPS). What the id stands for lives in modules/sessions; this plugin only turns the cookie
 * into `request.user` and writes or clears it.
 */
declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionHash: string | null;
  }
}

async function sessionPlugin(app: FastifyInstance) {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);

  app.addHook('onRequest', async (request, reply) => {
    // /oidc: the provider's interactions sign in with the portal's session (modules/oidc)
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/dev/') && !request.url.startsWith('/oidc/')) {
      return;
    }
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw) return;
    const session = await resolveSession(app.ctx, raw);
    if (!session) return;
    // The cookie's Max-Age slides with the server's idle clock (otherwise the browser would drop
    // the cookie 12 h after sign-in however active the user is), but never past the session's end.
    if (session.touched) setSessionCookie(reply, app.ctx.config, raw, session.remainingMs);
    request.user = session.user;
    request.sessionHash = session.hash;
  });
}

export const session = fp(sessionPlugin, { name: 'session', dependencies: ['@fastify/cookie'] });

/**
 * Who is asking, as services take it, with their origin: the product API token that opened the
 * route (its access rule checked it, plugins/access.ts), else the signed-in user, else an anonymous
 * visitor.
 */
export function actorOf(request: FastifyRequest): Actor {
  const origin = {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    sessionHash: request.sessionHash,
  };
  if (request.productToken) return { kind: 'token', token: request.productToken, ...origin };
  return request.user ? { kind: 'user', user: request.user, ...origin } : { kind: 'anonymous', ...origin };
}

const cookieAttributes = (config: Config) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies }) as const;

/** `remainingMs`: what is left of the session's lifetime; a new session has all of it. */
export function setSessionCookie(
  reply: FastifyReply,
  config: Config,
  raw: string,
  remainingMs = config.sessionLifetimeMs,
) {
  reply.setCookie(SESSION_COOKIE, raw, {
    ...cookieAttributes(config),
    maxAge: Math.floor(cookieLifetimeMs(remainingMs) / 1000),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config) {
  request.user = null;
  request.sessionHash = null;
  reply.clearCookie(SESSION_COOKIE, cookieAttributes(config));
}

/** A service's answer that carries a new session: the cookie gets the session, the body the rest. */
export function withSessionCookie<T>(reply: FastifyReply, config: Config, result: { session: string; body: T }): T {
  setSessionCookie(reply, config, result.session);
  return result.body;
}
