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

/** A product API token (modules/artifacts/tokens.ts), as the request it opened carries it. */
export interface ProductTokenRef {
  id: number;
  name: string;
  productKey: string;
}

/** Outside services that call the portal on their own (webhooks, provisioning callbacks). */
type IntegrationName = 'stripe' | 'provisioner' | 'crm';

/**
 * Who asks a service for something (docs/decisions/059). Routes pass the signed-in user, an anonymous
 * visitor, or the product API token that opened the route; an integration's webhook passes the
 * integration; background jobs pass a job actor named after the job; the operator command line a
 * system actor. No route can produce a job or a system actor. Every audit entry records its actor.
 */
export type Actor =
  | ({ kind: 'user'; user: SessionUser } & Origin)
  | ({ kind: 'anonymous' } & Origin)
  | ({ kind: 'token'; token: ProductTokenRef } & Origin)
  | { kind: 'integration'; name: IntegrationName }
  | { kind: 'job'; name: string }
  | { kind: 'system'; name: string };

export type ActorKind = Actor['kind'];
type UserActor = Extract<Actor, { kind: 'user' }>;

export const systemActor = (name: string): Actor => ({ kind: 'system', name });
export const jobActor = (name: string): Actor => ({ kind: 'job', name });
export const integrationActor = (name: IntegrationName): Actor => ({ kind: 'integration', name });

/** The signed-in user behind `actor`; a 401 for anyone else (the route's access rule came first). */
export function signedInUser(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw unauthenticated();
  return actor;
}

/** The actor's address for per-IP counters, or null for work the portal does itself. */
export function originOf(actor: Actor): Origin | null {
  return actor.kind === 'user' || actor.kind === 'anonymous' || actor.kind === 'token' ? actor : null;
}

/** Who acted, for a log line: `user:12`, `token:3`, `job:sweep.storage`, `anonymous`. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return `user:${actor.user.id}`;
    case 'token':
      return `token:${actor.token.id}`;
    case 'anonymous':
      return 'anonymous';
    default:
      return `${actor.kind}:${actor.name}`;
  }
}
