import type { CustomerAbilities } from '../../../common/api/abilities';
import type { Config } from '../../config';
import { holds, rolesOffered, type CustomerAccess } from '../../policy';

/** The optional integrations a customer's actions need, as this portal is set up. */
export interface Integrations {
  /** the CRM sync (SALESFORCE_*) */
  crm: boolean;
  /** card payments (Stripe, or the test checkout where allowed) */
  payments: boolean;
}

export const integrationsOf = (config: Pick<Config, 'crm' | 'payments'>): Integrations => ({
  crm: config.crm !== null,
  payments: config.payments.available,
});

/**
 * What the caller may do with a customer, from the role held there (spec sections 2, 4 and 6), and
 * what this portal is set up for: no sync without a CRM, no payment without a payment provider.
 */
export function customerAbilities(access: Pick<CustomerAccess, 'role'>, integrations: Integrations): CustomerAbilities {
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
    pay: can('pay') && integrations.payments,
    viewBillingContact: can('viewBillingContact'),
    telemetryAndSync: can('telemetryAndSync'),
    syncWithCrm: can('telemetryAndSync') && integrations.crm,
    viewSaasLogs: can('viewSaasLogs'),
    viewUnpaidAccount: can('viewUnpaidAccount'),
    inviteRoles: can('viewTeam') ? rolesOffered(access.role) : [],
  };
}

/** Only the customer's project managers are told its billing contact (spec section 2). */
export const mayReadBillingContact = (access: Pick<CustomerAccess, 'role'>): boolean =>
  holds(access, 'viewBillingContact');
