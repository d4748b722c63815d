import { describe, expect, it } from 'vitest';
import {
  type CustomerCapability,
  canGlobally,
  canInCustomer,
  type GlobalCapability,
  invitableRoles,
} from './permissions';
import { deriveRole, globalRole, type MemberRole, ROLES, type UserType } from './roles';

/**
 * The rules of spec sections 2 and 6 as cases: a user of this type, with this membership (or none)
 * in a customer, may or may not do this there. Each case goes through role derivation and the
 * capability table as a request does, so a wrong row, a wrong derivation or a wrong case fails. The
 * table itself is not restated: a case says what the spec says of one person.
 */
type Case = [who: string, type: UserType, membership: MemberRole | null, capability: CustomerCapability, may: boolean];

const inCustomer = (type: UserType, membership: MemberRole | null, capability: CustomerCapability) =>
  canInCustomer(deriveRole(type, membership), capability);

const CUSTOMER_CASES: Case[] = [
  // Add customer, edit customer, ..., copy invitation link: admin
  ['an admin edits a customer without being its member', 'admin', null, 'editCustomer', true],
  ["the customer's account executive does not edit it", 'accountExecutive', 'accountExecutive', 'editCustomer', false],
  ['a project manager does not edit their customer', 'client', 'businessOwner', 'editCustomer', false],
  ["an admin copies an invitation's link", 'admin', null, 'copyInvitationLink', true],
  ["a support engineer does not copy an invitation's link", 'supportEngineer', null, 'copyInvitationLink', false],
  // Telemetry link and sync: accountExecutive, admin, productManager, supportEngineer
  ['a product manager opens the telemetry and syncs', 'productManager', null, 'telemetryAndSync', true],
  [
    "the customer's account executive opens the telemetry",
    'accountExecutive',
    'accountExecutive',
    'telemetryAndSync',
    true,
  ],
  ['a project manager does not open the telemetry', 'client', 'businessOwner', 'telemetryAndSync', false],
  // Renew/edit/add licence: accountExecutive, admin, productManager
  [
    "the customer's account executive renews its licences",
    'accountExecutive',
    'accountExecutive',
    'manageLicences',
    true,
  ],
  ['a product manager adds a licence to any customer', 'productManager', null, 'manageLicences', true],
  ['a support engineer does not renew a licence', 'supportEngineer', null, 'manageLicences', false],
  ['a project manager does not renew their own licences', 'client', 'businessOwner', 'manageLicences', false],
  // Logs, members, invitation rows: accountExecutive, admin, businessOwner, supportEngineer
  ['a project manager sees their team and its recent actions', 'client', 'businessOwner', 'viewTeam', true],
  ['a support engineer sees any team', 'supportEngineer', null, 'viewTeam', true],
  ['a technical contact does not see the team', 'client', 'technicalContact', 'viewTeam', false],
  ['a product manager does not see the team', 'productManager', null, 'viewTeam', false],
  // Locale selector in invite form: accountExecutive, admin
  [
    "the customer's account executive chooses an invitation's language",
    'accountExecutive',
    'accountExecutive',
    'chooseInvitationLocale',
    true,
  ],
  [
    "a project manager does not choose an invitation's language",
    'client',
    'businessOwner',
    'chooseInvitationLocale',
    false,
  ],
  // SaaS logs link: supportEngineer, admin
  ['a support engineer opens the SaaS logs', 'supportEngineer', null, 'viewSaasLogs', true],
  ['a product manager does not open the SaaS logs', 'productManager', null, 'viewSaasLogs', false],
  // Member roles: the owner downloads, the technical contact downloads, the end user gets support only
  ['a project manager downloads', 'client', 'businessOwner', 'download', true],
  ['a technical contact downloads', 'client', 'technicalContact', 'download', true],
  ['an end user does not download', 'client', 'endUser', 'download', false],
  ['an end user does not see the licences', 'client', 'endUser', 'viewLicences', false],
  ['a technical contact sees the licences', 'client', 'technicalContact', 'viewLicences', true],
  // Spec section 2: the billing contact is the project manager's to see
  ['a project manager is told the billing contact', 'client', 'businessOwner', 'viewBillingContact', true],
  ['an admin is not told the billing contact', 'admin', null, 'viewBillingContact', false],
  // Role derivation: an account executive counts only as the customer's account executive member
  [
    'an account executive who is not its member sees nothing of a customer',
    'accountExecutive',
    null,
    'viewCustomer',
    false,
  ],
  [
    'an account executive with a client role there holds none',
    'accountExecutive',
    'businessOwner',
    'viewCustomer',
    false,
  ],
  ['a client without a membership sees nothing of the customer', 'client', null, 'viewCustomer', false],
  ['a client cannot hold the account executive role', 'client', 'accountExecutive', 'viewCustomer', false],
  ['an end user sees their customer', 'client', 'endUser', 'viewCustomer', true],
  ['a support engineer sees every customer without a membership', 'supportEngineer', null, 'viewCustomer', true],
];

describe('spec section 6 in a customer, case by case', () => {
  for (const [who, type, membership, capability, may] of CUSTOMER_CASES) {
    it(who, () => expect(inCustomer(type, membership, capability)).toBe(may));
  }
});

type GlobalCase = [who: string, type: UserType, capability: GlobalCapability, may: boolean];
const GLOBAL_CASES: GlobalCase[] = [
  ['an admin adds a customer', 'admin', 'addCustomer', true],
  ['a product manager does not add a customer', 'productManager', 'addCustomer', false],
  ['an admin manages the users', 'admin', 'manageUsers', true],
  ['a support engineer does not manage the users', 'supportEngineer', 'manageUsers', false],
  ['an admin manages the background work', 'admin', 'manageBackgroundWork', true],
  ['a product manager does not manage the background work', 'productManager', 'manageBackgroundWork', false],
  ['a support engineer does not manage the background work', 'supportEngineer', 'manageBackgroundWork', false],
  ['an admin adds a product', 'admin', 'addProduct', true],
  ['a product manager does not add a product', 'productManager', 'addProduct', false],
  ['a product manager adds and publishes versions', 'productManager', 'manageVersions', true],
  ['a support engineer does not publish versions', 'supportEngineer', 'manageVersions', false],
  ['an admin edits a product', 'admin', 'editProduct', true],
  ['a product manager does not edit a product', 'productManager', 'editProduct', false],
  // Spec section 2: who has the staff's home page and lists
  ['a support engineer has the customer list', 'supportEngineer', 'viewCustomers', true],
  ['a support engineer does not see the products', 'supportEngineer', 'viewProducts', false],
  [
    'an account executive has no staff page: their customers are their memberships',
    'accountExecutive',
    'viewCustomers',
    false,
  ],
  ['a client has no staff page', 'client', 'viewHome', false],
];

describe('spec sections 2 and 6 wherever the user is, case by case', () => {
  for (const [who, type, capability, may] of GLOBAL_CASES) {
    it(who, () => expect(canGlobally(globalRole(type), capability)).toBe(may));
  }

  it('gives nothing to nobody, and nothing for a name of the other table', () => {
    expect(canGlobally(null, 'viewHome')).toBe(false);
    expect(canInCustomer(undefined, 'viewCustomer')).toBe(false);
    // @ts-expect-error manageLicences depends on the customer: it is not a global capability
    expect(canGlobally('admin', 'manageLicences')).toBe(false);
    // @ts-expect-error manageUsers is decided by the user's type, not by a customer
    expect(canInCustomer('admin', 'manageUsers')).toBe(false);
  });

  it('sends the brand either to the account or to the root, never both', () => {
    for (const role of ROLES)
      expect(canInCustomer(role, 'brandToAccount') && canGlobally(role, 'brandToRoot'), role).toBe(false);
  });
});

describe('invite role options (spec section 6)', () => {
  it('offers the account executive option to account executives, support engineers, product managers and admins', () => {
    for (const role of ['accountExecutive', 'supportEngineer', 'productManager', 'admin'] as const) {
      expect(invitableRoles(role), role).toEqual(['accountExecutive', 'businessOwner', 'technicalContact', 'endUser']);
    }
  });

  it('offers a project manager the project manager option and below, not the account executive', () => {
    expect(invitableRoles('businessOwner')).toEqual(['businessOwner', 'technicalContact', 'endUser']);
  });

  it('offers a technical contact technical contacts and end users', () => {
    expect(invitableRoles('technicalContact')).toEqual(['technicalContact', 'endUser']);
  });

  it('offers nothing to end users and nobody', () => {
    expect(invitableRoles('endUser')).toEqual([]);
    expect(invitableRoles(null)).toEqual([]);
  });
});
