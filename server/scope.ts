import { type CustomerCapability, canInCustomer } from '../common/permissions';
import { deriveRole, globalRole, MEMBER_ROLES, type MemberRole, type Role } from '../common/roles';
import type { SessionUser } from './actor';

/**
 * The customers where a user holds a customer capability, for the lists that span customers
 * (docs/decisions/030 and 031): every customer, those of the user's enabled memberships with one of
 * `roles`, or none.
 */
export type CustomerScope = { every: true } | { memberId: number; roles: readonly MemberRole[] } | { none: true };

/**
 * Every customer for staff whose type holds the capability everywhere; the customers of their
 * enabled memberships with a role that holds it for the others (account executives, clients); none
 * for the rest and for a disabled account. It follows common/permissions.ts and `deriveRole`, so a
 * change of the capability table changes the lists with it.
 */
export function customerScopeOf(
  user: Pick<SessionUser, 'id' | 'type' | 'status'>,
  capability: CustomerCapability,
): CustomerScope {
  if (user.status !== 'enabled') return { none: true };
  const global = globalRole(user.type);
  if (global) return canInCustomer(global, capability) ? { every: true } : { none: true };
  const roles = MEMBER_ROLES.filter((role) => canInCustomer(deriveRole(user.type, role), capability));
  return roles.length > 0 ? { memberId: user.id, roles } : { none: true };
}

/**
 * The role that a scope's caller holds in each of its customers, where it is one role: the type's
 * global role for `every`, the one member role of a member scope (an account executive's
 * accountExecutive, a client's businessOwner for the team); null when it varies by customer or the
 * scope is empty.
 */
export function roleInScope(user: Pick<SessionUser, 'type'>, scope: CustomerScope): { role: Role } | null {
  if ('every' in scope) {
    const role = globalRole(user.type);
    return role ? { role } : null;
  }
  if ('none' in scope || scope.roles.length !== 1) return null;
  const role = deriveRole(user.type, scope.roles[0]);
  return role ? { role } : null;
}
