import type { FastifyReply, FastifyRequest } from 'fastify';
import { PENDING_SIGN_IN_COOKIE, PENDING_SIGN_IN_MS } from '../../../common/api/two-factor';
import type { Config } from '../../config';

/**
 * The pending sign-in's cookie: HttpOnly, sent to the sign-in routes only, and no longer lived than
 * the pending sign-in itself. Its value is a random token; the database keeps its SHA-256.
 */
const attributes = (config: Config) =>
  ({ path: '/api/auth', httpOnly: true, sameSite: 'lax', secure: config.secureCookies }) as const;

export function setPendingSignInCookie(reply: FastifyReply, config: Config, token: string) {
  reply.setCookie(PENDING_SIGN_IN_COOKIE, token, { ...attributes(config), maxAge: PENDING_SIGN_IN_MS / 1000 });
}

export function clearPendingSignInCookie(reply: FastifyReply, config: Config) {
  reply.clearCookie(PENDING_SIGN_IN_COOKIE, attributes(config));
}

export const pendingSignInOf = (request: FastifyRequest): string | undefined => request.cookies[PENDING_SIGN_IN_COOKIE];

/** A sign-in that awaits its second factor: the cookie gets the token, the body the rest. */
export function withPendingSignInCookie<T>(reply: FastifyReply, config: Config, result: { pending: string; body: T }) {
  setPendingSignInCookie(reply, config, result.pending);
  return result.body;
}
