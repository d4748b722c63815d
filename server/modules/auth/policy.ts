import type { ProfileAbilities } from '../../../common/api/abilities';
import type { Role } from '../../../common/roles';
import type { SessionUser } from '../../actor';
import { holds, holdsGlobally } from '../../policy';

/**
 * The signed-in user's own abilities (the profile): the pages and staff actions of their type, and
 * the top bar's links, which follow the role that stands for the user in the accounts they work on
 * (`yourRole`, spec section 2).
 */
export function profileAbilities(user: Pick<SessionUser, 'type'>, yourRole: Role | null): ProfileAbilities {
  const inAccounts = (capability: Parameters<typeof holds>[1]) =>
    holds(yourRole ? { role: yourRole } : null, capability);
  return {
    viewHome: holdsGlobally(user, 'viewHome'),
    viewCustomers: holdsGlobally(user, 'viewCustomers'),
    viewProducts: holdsGlobally(user, 'viewProducts'),
    manageUsers: holdsGlobally(user, 'manageUsers'),
    addCustomer: holdsGlobally(user, 'addCustomer'),
    addProduct: holdsGlobally(user, 'addProduct'),
    viewDownloadAnalytics: holdsGlobally(user, 'viewDownloadAnalytics'),
    manageWebhooks: holdsGlobally(user, 'manageWebhooks'),
    manageBackgroundWork: holdsGlobally(user, 'manageBackgroundWork'),
    brandToRoot: holdsGlobally(user, 'brandToRoot'),
    brandToAccount: inAccounts('brandToAccount'),
    homeLink: inAccounts('homeLink'),
    accountExecutiveContact: inAccounts('accountExecutiveContact'),
    renewLicences: inAccounts('manageLicences'),
  };
}
