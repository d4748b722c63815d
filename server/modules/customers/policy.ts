import type { CustomerAbilities } from '../../../common/api/abilities';
import type { CustomerAccess } from '../../plugins/access';
import { holds, rolesOffered } from '../../policy';

/** What the caller may do with a customer, from the role held there (spec sections 2, 4 and 6). */
export function customerAbilities(access: Pick<CustomerAccess, 'role'>): CustomerAbilities {
  const can = (capability: Parameters<typeof holds>[1]) => holds(access, capability);
  return {
    edit: can('editCustomer'),
    viewLicences: can('viewLicences'),
    addLicence: can('manageLicences'),
    viewLicenceDetails: can('viewLicenceDetails'),
    viewLicenceAccessLevels: can('viewLicenceAccessLevels'),
    download: can('download'),
    viewTeam: can('viewTeam'),
    viewRecentActions: can('viewTeam'),
    chooseInvitationLocale: can('chooseInvitationLocale'),
    copyInvitationLink: can('copyInvitationLink'),
    changeAccountExecutive: can('manageLicences'),
    viewSubscription: can('viewSubscription'),
    pay: can('pay'),
    viewBillingContact: can('viewBillingContact'),
    telemetryAndSync: can('telemetryAndSync'),
    viewSaasLogs: can('viewSaasLogs'),
    viewUnpaidAccount: can('viewUnpaidAccount'),
    inviteRoles: can('viewTeam') ? rolesOffered(access.role) : [],
  };
}

/** Only the customer's project managers are told its billing contact (spec section 2). */
export const mayReadBillingContact = (access: Pick<CustomerAccess, 'role'>): boolean =>
  holds(access, 'viewBillingContact');
