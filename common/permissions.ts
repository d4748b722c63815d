import { type GlobalRole, isGlobalRole, type MemberRole, ROLES, type Role } from './roles';

/**
 * The capability tables (spec section 6, plus the page and top-bar rules of section 2). Server access
 * rules and the UI both read them; nothing else decides who may do what. There are two, because a
 * user holds a role in two ways:
 *
 * - Global capabilities are decided by the user's type alone (common/roles.ts `globalRole`): pages,
 *   users, products and the staff items of the top bar. Only admins, product managers and support
 *   engineers hold a global role; an account executive and a client hold none.
 * - Customer capabilities are decided by the role the user holds in one customer (`deriveRole`, spec
 *   section 6 "Role derivation"). The top bar reads the last three with the profile's role, which
 *   stands for the role the user holds in the accounts they work on.
 *
 * Server routes declare one or the other (`access.can(global)`, `access.customer(customer, ...)`), so
 * an account executive's membership of one customer never opens another customer.
 */
export const GLOBAL_CAPABILITIES = {
  // Section 2: pages (the customer list, the products, the users page)
  viewHome: ['productManager', 'supportEngineer', 'admin'],
  viewCustomers: ['supportEngineer', 'productManager', 'admin'],
  viewProducts: ['productManager', 'admin'],
  manageUsers: ['admin'],
  // Section 6: rows that are not about one customer
  addCustomer: ['admin'],
  addProduct: ['admin'],
  editProduct: ['admin'],
  manageVersions: ['productManager', 'admin'],
  // Beyond the spec: the download analytics (docs/decisions/039)
  viewDownloadAnalytics: ['productManager', 'admin'],
  // Beyond the spec: webhook endpoints and their deliveries (docs/webhooks.md)
  manageWebhooks: ['admin'],
  // Beyond the spec: the Background work page, over the job engine (docs/decisions/062, 063)
  manageBackgroundWork: ['admin'],
  // Section 2: top bar
  brandToRoot: ['productManager', 'supportEngineer', 'admin'],
} as const satisfies Record<string, readonly GlobalRole[]>;

export const CUSTOMER_CAPABILITIES = {
  // Anyone with a role in the customer sees its page
  viewCustomer: ROLES,
  // Section 6
  editCustomer: ['admin'],
  copyInvitationLink: ['admin'],
  telemetryAndSync: ['accountExecutive', 'admin', 'productManager', 'supportEngineer'],
  manageLicences: ['accountExecutive', 'admin', 'productManager'],
  viewTeam: ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer'],
  chooseInvitationLocale: ['accountExecutive', 'admin'],
  viewSaasLogs: ['supportEngineer', 'admin'],
  // Beyond the spec: archiving and restoring a cloud instance (docs/instances.md)
  manageInstances: ['admin', 'supportEngineer'],
  // Section 2: the customer page
  viewLicenceDetails: ['accountExecutive', 'admin', 'productManager', 'supportEngineer'],
  download: ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer', 'technicalContact'],
  viewSubscription: ['businessOwner', 'admin', 'accountExecutive', 'supportEngineer'],
  pay: ['businessOwner', 'admin', 'supportEngineer'],
  viewBillingContact: ['businessOwner'],
  // Section 4, "Customer page load" and "Main sections shown if": the customer page
  viewLicences: ['admin', 'accountExecutive', 'productManager', 'supportEngineer', 'businessOwner', 'technicalContact'],
  viewLicenceAccessLevels: ['businessOwner', 'technicalContact'],
  viewUnpaidAccount: ['admin', 'supportEngineer'],
  // Section 2: top bar of those who work inside their accounts
  brandToAccount: ['businessOwner', 'technicalContact', 'accountExecutive'],
  homeLink: ['technicalContact', 'businessOwner', 'accountExecutive'],
  accountExecutiveContact: ['technicalContact', 'businessOwner'],
} as const satisfies Record<string, readonly Role[]>;

export type GlobalCapability = keyof typeof GLOBAL_CAPABILITIES;
export type CustomerCapability = keyof typeof CUSTOMER_CAPABILITIES;

/**
 * Whether a global role holds a global capability. Any role may be passed (the client passes the
 * profile's role): only the global ones hold anything.
 */
export function canGlobally(role: Role | null | undefined, capability: GlobalCapability): boolean {
  return isGlobalRole(role) && holds(GLOBAL_CAPABILITIES, capability, role);
}

/** Whether the role held in a customer (from `deriveRole`) holds a customer capability there. */
export function canInCustomer(role: Role | null | undefined, capability: CustomerCapability): boolean {
  return role ? holds(CUSTOMER_CAPABILITIES, capability, role) : false;
}

/** A name from the other table (only possible past the types, e.g. from plain JavaScript) holds nothing. */
function holds(table: Record<string, readonly Role[]>, capability: string, role: Role): boolean {
  return Object.hasOwn(table, capability) && table[capability].includes(role);
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
