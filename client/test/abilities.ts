import type {
  CustomerAbilities,
  CustomizationAbilities,
  InvitationAbilities,
  LicenceAbilities,
  MemberAbilities,
  ProductAbilities,
  ProfileAbilities,
  UserAbilities,
  VersionAbilities,
} from '../../common/api/abilities';
import { canGlobally, canInCustomer, invitableRoles } from '../../common/permissions';
import { globalRole, type MemberRole, type Role, type UserType } from '../../common/roles';

/**
 * The abilities (`can`) the server's policies answer with, for the fixtures of client tests: the
 * same capability tables, so a fixture of a role looks as the server would send it. The application
 * never computes these (docs/decisions/056). server/policy.test.ts tests the policies themselves,
 * and checks each of these against the policy it restates (a portal with every integration on), for
 * every type, role and case taken here: a fixture cannot drift from a rule.
 */
export function profileCan(type: UserType, yourRole: Role | null): ProfileAbilities {
  const global = (capability: Parameters<typeof canGlobally>[1]) => canGlobally(globalRole(type), capability);
  const inAccounts = (capability: Parameters<typeof canInCustomer>[1]) => canInCustomer(yourRole, capability);
  return {
    viewHome: global('viewHome'),
    viewCustomers: global('viewCustomers'),
    viewProducts: global('viewProducts'),
    manageUsers: global('manageUsers'),
    addCustomer: global('addCustomer'),
    addProduct: global('addProduct'),
    viewDownloadAnalytics: global('viewDownloadAnalytics'),
    manageWebhooks: global('manageWebhooks'),
    manageBackgroundWork: global('manageBackgroundWork'),
    brandToRoot: global('brandToRoot'),
    brandToAccount: inAccounts('brandToAccount'),
    homeLink: inAccounts('homeLink'),
    accountExecutiveContact: inAccounts('accountExecutiveContact'),
    renewLicences: inAccounts('manageLicences'),
  };
}

export function customerCan(role: Role): CustomerAbilities {
  const can = (capability: Parameters<typeof canInCustomer>[1]) => canInCustomer(role, capability);
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
    syncWithCrm: can('telemetryAndSync'),
    viewSaasLogs: can('viewSaasLogs'),
    viewUnpaidAccount: can('viewUnpaidAccount'),
    inviteRoles: can('viewTeam') ? invitableRoles(role) : [],
  };
}

export function licenceCan(role: Role, customizationType = 'none'): LicenceAbilities {
  const manage = canInCustomer(role, 'manageLicences');
  return {
    renew: manage,
    edit: manage,
    customize: manage && customizationType !== 'none',
    download: canInCustomer(role, 'download'),
    viewDetails: canInCustomer(role, 'viewLicenceDetails'),
  };
}

export function memberCan(role: Role, member: { role: MemberRole; self?: boolean }): MemberAbilities {
  const team = canInCustomer(role, 'viewTeam');
  return {
    changeStatus: team && !member.self && invitableRoles(role).includes(member.role),
    editSettings: member.self === true || team,
  };
}

export function invitationCan(role: Role): InvitationAbilities {
  const team = canInCustomer(role, 'viewTeam');
  return { cancel: team, resend: team, copyLink: canInCustomer(role, 'copyInvitationLink') };
}

/** A product, for the type of the caller (catalogue/policy.ts). */
export function productCan(type: UserType): ProductAbilities {
  const role = globalRole(type);
  return { edit: canGlobally(role, 'editProduct'), manageVersions: canGlobally(role, 'manageVersions') };
}

/** A version, for the type of the caller: its files change only while it is unpublished (artifacts/policy.ts). */
export function versionCan(type: UserType, version: { published: boolean }): VersionAbilities {
  const manage = canGlobally(globalRole(type), 'manageVersions');
  const unpublished = manage && !version.published;
  return { edit: manage, publish: unpublished, upload: unpublished, deleteArtifacts: unpublished };
}

/** A customization of a licence, for the caller's role in its customer (customizations/policy.ts). */
export function customizationCan(role: Role, customizationType = 'lke'): CustomizationAbilities {
  return { edit: canInCustomer(role, 'manageLicences') && customizationType !== 'none' };
}

/** A user account on the Users page, as an admin sees it: their own keeps its status (users/policy.ts). */
export function userCan(options: { self?: boolean; type?: UserType } = {}): UserAbilities {
  const edit = canGlobally(globalRole(options.type ?? 'admin'), 'manageUsers');
  return { edit, changeStatus: edit && options.self !== true };
}

/** The type of a user whose profile shows `yourRole`: staff keep their type, anyone else is a client. */
export function typeOfRole(yourRole: Role | null): UserType {
  return yourRole === null || yourRole === 'businessOwner' || yourRole === 'technicalContact' || yourRole === 'endUser'
    ? 'client'
    : yourRole;
}
