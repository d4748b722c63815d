import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE, SESSION_IDLE_TIMEOUT_MS } from '../../common/constants';
import type { Locale, UserStatus, UserType } from '../../common/roles';
import type { Config } from '../config';
import { nowIso } from '../db';
import { hashToken } from '../modules/auth/tokens';

/**
 * Server-side sessions (decisions.md): an opaque random id in an HttpOnly, SameSite=Lax cookie
 * (Secure behind HTTPS); only its SHA-256 is stored; renewed at login; idle timeout 12 h.
 */
export interface SessionUser {
  id: number;
  email: string;
  fullName: string;
  type: UserType;
  status: UserStatus;
  preferredLocale: Locale;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionHash: string | null;
  }
}

/** lastSeenAt is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

async function sessionPlugin(app: FastifyInstance) {
  const { db } = app.ctx;
  app.decorateRequest('user', null);
  app.decorateRequest('sessionHash', null);

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/dev/')) return;
    const raw = request.cookies[SESSION_COOKIE];
    if (!raw) return;
    const id = hashToken(raw);
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.userId')
      .select([
        'sessions.lastSeenAt',
        'users.id',
        'users.email',
        'users.fullName',
        'users.type',
        'users.status',
        'users.preferredLocale',
      ])
      .where('sessions.id', '=', id)
      .executeTakeFirst();
    if (!row) return;
    const idle = Date.now() - Date.parse(row.lastSeenAt);
    if (idle > SESSION_IDLE_TIMEOUT_MS || row.status !== 'enabled') {
      await db.deleteFrom('sessions').where('id', '=', id).execute();
      return;
    }
    if (idle > TOUCH_INTERVAL_MS) {
      await db.updateTable('sessions').set({ lastSeenAt: nowIso() }).where('id', '=', id).execute();
      // The cookie's Max-Age slides with the server's idle clock; otherwise the browser would drop
      // the cookie 12 h after sign-in however active the user is.
      setSessionCookie(reply, app.ctx.config, raw);
    }
    const { lastSeenAt: _, ...user } = row;
    request.user = user;
    request.sessionHash = id;
  });
}

export const session = fp(sessionPlugin, { name: 'session', dependencies: ['@fastify/cookie'] });

/** Starts a new session for `userId`, ending the one the request came with (renewal at login). */
export async function startSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, userId: number) {
  const { db, config } = app.ctx;
  if (request.sessionHash) await db.deleteFrom('sessions').where('id', '=', request.sessionHash).execute();
  const raw = crypto.randomBytes(32).toString('base64url');
  const now = nowIso();
  await db
    .insertInto('sessions')
    .values({
      id: hashToken(raw),
      userId,
      createdAt: now,
      lastSeenAt: now,
      ip: request.ip,
      userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
    })
    .execute();
  request.sessionHash = hashToken(raw);
  setSessionCookie(reply, config, raw);
}

const cookieAttributes = (config: Config) =>
  ({ path: '/', httpOnly: true, sameSite: 'lax', secure: config.secureCookies }) as const;

function setSessionCookie(reply: FastifyReply, config: Config, raw: string) {
  reply.setCookie(SESSION_COOKIE, raw, {
    ...cookieAttributes(config),
    maxAge: Math.floor(SESSION_IDLE_TIMEOUT_MS / 1000),
  });
}

export async function endSession(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
  if (request.sessionHash) await app.ctx.db.deleteFrom('sessions').where('id', '=', request.sessionHash).execute();
  request.user = null;
  request.sessionHash = null;
  reply.clearCookie(SESSION_COOKIE, cookieAttributes(app.ctx.config));
}

/** Ends every session of a user, but the one given (after a password reset, a disable…). */
export async function endUserSessions(app: FastifyInstance, userId: number, exceptHash?: string | null) {
  let query = app.ctx.db.deleteFrom('sessions').where('userId', '=', userId);
  if (exceptHash) query = query.where('id', '!=', exceptHash);
  await query.execute();
}
