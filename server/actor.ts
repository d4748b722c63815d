import type { Locale, UserStatus, UserType } from '../common/roles';
import { unauthenticated } from './http-error';

/** The signed-in user as a session knows them. */
export interface SessionUser {
  id: number;
  email: string;
  fullName: string;
  type: UserType;
  status: UserStatus;
  preferredLocale: Locale;
}

/** Where a request came from: recorded with sessions and sign-in attempts, used for per-IP limits. */
export interface Origin {
  ip: string;
  userAgent: string | null;
  /** hash of the session the request came with, if any (a new sign-in replaces it) */
  sessionHash: string | null;
}

/**
 * Who asks a service for something. Routes pass the signed-in user or an anonymous visitor; the
 * operator command line and background jobs pass a system actor, which no route can produce.
 */
export type Actor =
  ({ kind: 'user'; user: SessionUser } & Origin) | ({ kind: 'anonymous' } & Origin) | { kind: 'system'; name: string };

export type UserActor = Extract<Actor, { kind: 'user' }>;

export const systemActor = (name: string): Actor => ({ kind: 'system', name });

/** The signed-in user behind `actor`; a 401 for anyone else (the route's access rule came first). */
export function signedInUser(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw unauthenticated();
  return actor;
}

/** The actor's address for per-IP counters, or null for work the portal does itself. */
export function originOf(actor: Actor): Origin | null {
  return actor.kind === 'system' ? null : actor;
}
