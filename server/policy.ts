import {
  type CustomerCapability,
  canGlobally,
  canInCustomer,
  type GlobalCapability,
  invitableRoles,
} from '../common/permissions';
import { globalRole, type MemberRole, type Role } from '../common/roles';
import type { Actor, SessionUser } from './actor';
import type { CustomerRow, MembershipRow } from './modules/customers/repo';

/**
 * The named checks every policy is built from (server/modules/<area>/policy.ts, docs/decisions/056).
 * Each reads the caller's access: the role held in a customer (`CustomerAccess`, established by the
 * route's access rule through `resolveCustomerAccess`), or the user's type for what belongs to no customer.
 * The capability tables of common/permissions.ts stay the source of route access and of the
 * authorisation matrix; policies answer the finer questions (this member, this version) and the
 * abilities (`can`) that answers carry.
 */
export type Caller = Pick<SessionUser, 'id' | 'type' | 'status'>;

/**
 * What a customer route knows of its caller there: the customer, the role held, the membership.
 * The route's access rule establishes it (`resolveCustomerAccess`, plugins/access.ts); policies and
 * services take it as it is, and none of them reads the request.
 */
export interface CustomerAccess {
  customer: CustomerRow;
  role: Role;
  /** the caller's enabled membership; null for staff who hold their role without one */
  membership: MembershipRow | null;
}

/**
 * The signed-in user an answer's abilities are computed for; null for any other actor (a product
 * token, a job, the command line), whose answers carry no ability: `can` tells a person what the
 * screens may offer them.
 */
export const callerOf = (actor: Actor): SessionUser | null => (actor.kind === 'user' ? actor.user : null);

/** The role held in the customer holds the capability there. */
export const holds = (access: Pick<CustomerAccess, 'role'> | null, capability: CustomerCapability): boolean =>
  access !== null && canInCustomer(access.role, capability);

/** The user's type holds the global capability (only admins, product managers and support engineers hold any). */
export const holdsGlobally = (user: Pick<SessionUser, 'type'>, capability: GlobalCapability): boolean =>
  canGlobally(globalRole(user.type), capability);

/** The member roles a role may give (spec section 6: in an invitation, and to change a member's status). */
export const rolesOffered = (role: Role | null): MemberRole[] => invitableRoles(role);

/** The role may give `memberRole`. */
export const offers = (access: Pick<CustomerAccess, 'role'> | null, memberRole: MemberRole): boolean =>
  access !== null && rolesOffered(access.role).includes(memberRole);

/** The caller is the user concerned. */
export const isSelf = (caller: Pick<SessionUser, 'id'>, userId: number): boolean => caller.id === userId;
