import type { SessionUser } from '../../actor';
import { holdsGlobally } from '../../policy';
import { customerScopeOf } from '../../scope';
import { isStaff } from '../../../common/roles';
import type { Scope } from './repo';

type User = Pick<SessionUser, 'id' | 'type' | 'status'>;

/**
 * What the staff's search box finds for a caller (docs/decisions/079-staff-search.md): each kind
 * follows the rule of the list or page it opens, through the same scope (server/scope.ts) and
 * capabilities (common/permissions.ts), so that the box never shows what those pages would refuse.
 * - customers: the customer list's scope (viewCustomer): every customer for admins, product managers
 *   and support engineers, an account executive's own customers
 * - users: the Users page (manageUsers, admins), every account
 * - members: the people of the customers whose team the caller sees (viewTeam), for those without
 *   the Users page: support engineers everywhere, an account executive in their own customers
 * - licences: the customers whose licences the caller sees (viewLicences)
 * - products and versions: the products pages (viewProducts)
 */
interface SearchReach {
  customers: Scope | null;
  users: boolean;
  members: Scope | null;
  licences: Scope | null;
  catalogue: boolean;
}

/** Only staff search; a client, or a disabled account, gets 403. */
export const maySearch = (user: User): boolean => isStaff(user.type) && user.status === 'enabled';

export function searchReach(user: User): SearchReach {
  const scope = (capability: Parameters<typeof customerScopeOf>[1]): Scope | null => {
    const found = customerScopeOf(user, capability);
    return 'none' in found ? null : found;
  };
  const users = holdsGlobally(user, 'manageUsers');
  return {
    customers: scope('viewCustomer'),
    users,
    members: users ? null : scope('viewTeam'),
    licences: scope('viewLicences'),
    catalogue: holdsGlobally(user, 'viewProducts'),
  };
}
