import type { MemberRole, Role } from './roles';

/**
 * The capability table (spec section 6, plus the page and top-bar rules of section 2).
 * Server policies and the UI both read it; nothing else decides who may do what.
 */
export const CAPABILITIES = {
  // Section 6
  addCustomer: ['admin'],
  editCustomer: ['admin'],
  addProduct: ['admin'],
  editProduct: ['admin'],
  manageUsers: ['admin'],
  copyInvitationLink: ['admin'],
  telemetryAndSync: ['accountExecutive', 'admin', 'productManager', 'supportEngineer'],
  manageLicences: ['accountExecutive', 'admin', 'productManager'],
  manageVersions: ['productManager', 'admin'],
  viewTeam: ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer'],
  chooseInvitationLocale: ['accountExecutive', 'admin'],
  viewSaasLogs: ['supportEngineer', 'admin'],
  // Section 2: pages and the customer page
  viewHome: ['productManager', 'supportEngineer', 'admin'],
  viewCustomers: ['supportEngineer', 'productManager', 'admin'],
  viewProducts: ['productManager', 'admin'],
  viewLicenceDetails: ['accountExecutive', 'admin', 'productManager', 'supportEngineer'],
  download: ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer', 'technicalContact'],
  viewSubscription: ['businessOwner', 'admin', 'accountExecutive', 'supportEngineer'],
  pay: ['businessOwner', 'admin', 'supportEngineer'],
  viewBillingContact: ['businessOwner'],
  // Section 2: top bar
  brandToAccount: ['businessOwner', 'technicalContact', 'accountExecutive'],
  brandToRoot: ['productManager', 'supportEngineer', 'admin'],
  homeLink: ['technicalContact', 'businessOwner', 'accountExecutive'],
  accountExecutiveContact: ['technicalContact', 'businessOwner'],
  // Section 2: account picker (staff other than account executives do not get it)
  selectAccount: ['accountExecutive', 'businessOwner', 'technicalContact', 'endUser'],
} as const satisfies Record<string, readonly Role[]>;

export type Capability = keyof typeof CAPABILITIES;

export function can(role: Role | null | undefined, capability: Capability): boolean {
  if (!role) return false;
  return (CAPABILITIES[capability] as readonly Role[]).includes(role);
}

export function rolesWith(capability: Capability): readonly Role[] {
  return CAPABILITIES[capability];
}

/** Which member roles a user of `role` may offer in the invite form (spec section 6). */
export function invitableRoles(role: Role | null | undefined): MemberRole[] {
  if (!role) return [];
  const staff: Role[] = ['accountExecutive', 'supportEngineer', 'productManager', 'admin'];
  const result: MemberRole[] = [];
  if (staff.includes(role)) result.push('accountExecutive');
  if ([...staff, 'businessOwner'].includes(role)) result.push('businessOwner');
  if ([...staff, 'businessOwner', 'technicalContact'].includes(role)) result.push('technicalContact', 'endUser');
  return result;
}
