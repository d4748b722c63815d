import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Capability, can } from '../../common/permissions';
import { isStaff, type Role } from '../../common/roles';
import { forbidden, unauthenticated } from '../http-error';
import type { SessionUser } from './session';

/**
 * Who may call a route. Every route under /api declares one in `config.access`; the app refuses to
 * start when one is missing, and server/authorization.test.ts checks each against the matrix.
 * - public: anyone, signed in or not
 * - signedIn: any signed-in user
 * - capability: a staff user whose type holds the capability in common/permissions.ts
 * Rules that depend on a customer (membership) are checked in the area's policy.ts, with the
 * membership loaded; they declare `customer` here so the matrix knows to test own vs other customer.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'signedIn' }
  | { kind: 'capability'; capability: Capability }
  | { kind: 'customer'; capability?: Capability };

export const access = {
  public: { kind: 'public' } as Access,
  signedIn: { kind: 'signedIn' } as Access,
  can: (capability: Capability): Access => ({ kind: 'capability', capability }),
  customer: (capability?: Capability): Access => ({ kind: 'customer', capability }),
};

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** The role a user holds outside any customer: their type for staff, none for clients. */
export function globalRole(user: SessionUser): Role | null {
  return isStaff(user.type) ? user.type : null;
}

export async function enforceAccess(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const rule = request.routeOptions.config.access;
  if (!rule || rule.kind === 'public') return;
  const user = request.user;
  if (!user) throw unauthenticated();
  if (rule.kind === 'capability' && !can(globalRole(user), rule.capability)) throw forbidden();
}
