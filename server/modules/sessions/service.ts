import crypto from 'node:crypto';
import { SESSION_IDLE_TIMEOUT_MS } from '../../../common/constants';
import { type Actor, originOf, type SessionUser } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { hashToken } from '../auth/tokens';
import * as repo from './repo';

/**
 * Server-side sessions (decisions.md): an opaque random id in a cookie, only its SHA-256 stored,
 * renewed at sign-in, idle timeout 12 h, and an absolute lifetime after sign-in (30 days by default,
 * SESSION_LIFETIME_DAYS) that no activity extends, so a stolen cookie does not last for ever. This is
 * the data side; plugins/session.ts reads and writes the cookie.
 */

/** lastSeenAt is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

interface ResolvedSession {
  user: SessionUser;
  hash: string;
  /** lastSeenAt moved: the cookie's lifetime should slide with it */
  touched: boolean;
  /** milliseconds until the session's absolute end */
  remainingMs: number;
}

/** How long a cookie for a session may live: the idle timeout, but never past the session's end. */
export function cookieLifetimeMs(remainingMs: number): number {
  return Math.max(0, Math.min(SESSION_IDLE_TIMEOUT_MS, remainingMs));
}

/** The session a raw cookie value stands for, or null; an idle or disabled one is ended on the way. */
export async function resolveSession(ctx: AppContext, raw: string): Promise<ResolvedSession | null> {
  const hash = hashToken(raw);
  const row = await repo.findSessionWithUser(ctx.db, hash);
  if (!row) return null;
  const now = Date.now();
  const idle = now - Date.parse(row.lastSeenAt);
  const remainingMs = Date.parse(row.createdAt) + ctx.config.sessionLifetimeMs - now;
  if (idle > SESSION_IDLE_TIMEOUT_MS || remainingMs <= 0 || row.status !== 'enabled') {
    await repo.deleteSession(ctx.db, hash);
    return null;
  }
  const touched = idle > TOUCH_INTERVAL_MS;
  if (touched) await repo.touchSession(ctx.db, hash);
  const { lastSeenAt: _, createdAt: __, ...user } = row;
  return { user, hash, touched, remainingMs };
}

/**
 * Starts a session for `userId`, ending the one the actor came with (renewal at sign-in). Returns the
 * raw id, which only the cookie holds.
 */
export async function startSession(ctx: AppContext, actor: Actor, userId: number): Promise<string> {
  const origin = originOf(actor);
  if (origin?.sessionHash) await repo.deleteSession(ctx.db, origin.sessionHash);
  const raw = crypto.randomBytes(32).toString('base64url');
  await repo.insertSession(ctx.db, {
    id: hashToken(raw),
    userId,
    ip: origin?.ip ?? null,
    userAgent: origin?.userAgent?.slice(0, 500) ?? null,
  });
  return raw;
}

/** Ends the session the actor came with, if any. */
export async function endSession(ctx: AppContext, actor: Actor): Promise<void> {
  const hash = originOf(actor)?.sessionHash;
  if (hash) await repo.deleteSession(ctx.db, hash);
}

/** Ends the session a raw cookie value stands for (an OpenID Connect logout, modules/oidc). */
export async function endSessionByCookie(ctx: AppContext, raw: string): Promise<void> {
  await repo.deleteSession(ctx.db, hashToken(raw));
}

/**
 * Ends every session of a user but the one given (after a password reset, a disable…). Takes the
 * caller's transaction, so the sessions end with the change that ends them.
 */
export async function endUserSessions(db: DB, userId: number, exceptHash?: string | null): Promise<void> {
  await repo.deleteUserSessions(db, userId, exceptHash);
}

/** Deletes sessions past their idle timeout or their lifetime; a scheduled job runs it. Returns how many went. */
export async function purgeExpiredSessions(ctx: AppContext, now = Date.now()): Promise<number> {
  return repo.deleteExpiredSessions(
    ctx.db,
    new Date(now - SESSION_IDLE_TIMEOUT_MS).toISOString(),
    new Date(now - ctx.config.sessionLifetimeMs).toISOString(),
  );
}
