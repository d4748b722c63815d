import { describe, expect, it } from 'vitest';
import {
  CUSTOMER_CAPABILITIES,
  type CustomerCapability,
  canGlobally,
  canInCustomer,
  GLOBAL_CAPABILITIES,
  type GlobalCapability,
  invitableRoles,
} from './permissions';
import { GLOBAL_ROLES, globalRole, ROLES, type Role, USER_TYPES, type UserType } from './roles';

/** Spec sections 2 and 6, row by row: what the user's type decides, wherever they are. */
const EXPECTED_GLOBAL: Record<GlobalCapability, Role[]> = {
  viewHome: ['productManager', 'supportEngineer', 'admin'],
  viewCustomers: ['supportEngineer', 'productManager', 'admin'],
  viewProducts: ['productManager', 'admin'],
  manageUsers: ['admin'],
  addCustomer: ['admin'],
  addProduct: ['admin'],
  editProduct: ['admin'],
  manageVersions: ['productManager', 'admin'],
  viewDownloadAnalytics: ['productManager', 'admin'],
  brandToRoot: ['productManager', 'supportEngineer', 'admin'],
};

/** Spec sections 2 and 6, row by row: what the role held in one customer decides there. */
const EXPECTED_CUSTOMER: Record<CustomerCapability, Role[]> = {
  viewCustomer: [
    'admin',
    'accountExecutive',
    'productManager',
    'supportEngineer',
    'businessOwner',
    'technicalContact',
    'endUser',
  ],
  editCustomer: ['admin'],
  copyInvitationLink: ['admin'],
  telemetryAndSync: ['accountExecutive', 'admin', 'productManager', 'supportEngineer'],
  manageLicences: ['accountExecutive', 'admin', 'productManager'],
  viewTeam: ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer'],
  chooseInvitationLocale: ['accountExecutive', 'admin'],
  viewSaasLogs: ['supportEngineer', 'admin'],
  viewLicenceDetails: ['accountExecutive', 'admin', 'productManager', 'supportEngineer'],
  download: ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer', 'technicalContact'],
  viewSubscription: ['businessOwner', 'admin', 'accountExecutive', 'supportEngineer'],
  pay: ['businessOwner', 'admin', 'supportEngineer'],
  viewBillingContact: ['businessOwner'],
  viewLicences: ['admin', 'accountExecutive', 'productManager', 'supportEngineer', 'businessOwner', 'technicalContact'],
  viewLicenceAccessLevels: ['businessOwner', 'technicalContact'],
  viewUnpaidAccount: ['admin', 'supportEngineer'],
  brandToAccount: ['businessOwner', 'technicalContact', 'accountExecutive'],
  homeLink: ['technicalContact', 'businessOwner', 'accountExecutive'],
  accountExecutiveContact: ['technicalContact', 'businessOwner'],
};

describe('global capability table', () => {
  it('lists exactly the expected capabilities', () => {
    expect(Object.keys(GLOBAL_CAPABILITIES).sort()).toEqual(Object.keys(EXPECTED_GLOBAL).sort());
  });

  for (const [capability, roles] of Object.entries(EXPECTED_GLOBAL) as [GlobalCapability, Role[]][]) {
    it(`grants ${capability} to ${roles.join(', ')} only`, () => {
      for (const role of ROLES) expect(canGlobally(role, capability), role).toBe(roles.includes(role));
      expect(canGlobally(null, capability)).toBe(false);
      expect(canGlobally(undefined, capability)).toBe(false);
    });
  }

  it('gives a global role to admins, product managers and support engineers only', () => {
    const expected: Record<UserType, Role | null> = {
      admin: 'admin',
      productManager: 'productManager',
      supportEngineer: 'supportEngineer',
      accountExecutive: null,
      client: null,
    };
    for (const type of USER_TYPES) expect(globalRole(type), type).toBe(expected[type]);
  });

  it('grants an account executive nothing outside their customers', () => {
    for (const capability of Object.keys(GLOBAL_CAPABILITIES) as GlobalCapability[]) {
      expect(canGlobally(globalRole('accountExecutive'), capability), capability).toBe(false);
    }
  });

  it('holds only global roles', () => {
    for (const roles of Object.values(GLOBAL_CAPABILITIES)) {
      for (const role of roles) expect(GLOBAL_ROLES).toContain(role);
    }
  });

  it('accepts only global capability names', () => {
    // @ts-expect-error manageLicences depends on the customer: it is not a global capability
    expect(canGlobally('admin', 'manageLicences')).toBe(false);
  });
});

describe('customer capability table', () => {
  it('lists exactly the expected capabilities', () => {
    expect(Object.keys(CUSTOMER_CAPABILITIES).sort()).toEqual(Object.keys(EXPECTED_CUSTOMER).sort());
  });

  for (const [capability, roles] of Object.entries(EXPECTED_CUSTOMER) as [CustomerCapability, Role[]][]) {
    it(`grants ${capability} to ${roles.join(', ')} only`, () => {
      for (const role of ROLES) expect(canInCustomer(role, capability), role).toBe(roles.includes(role));
      expect(canInCustomer(null, capability)).toBe(false);
      expect(canInCustomer(undefined, capability)).toBe(false);
    });
  }

  it('accepts only customer capability names', () => {
    // @ts-expect-error manageUsers is decided by the user's type, not by a customer
    expect(canInCustomer('admin', 'manageUsers')).toBe(false);
  });
});

describe('top bar', () => {
  it('keeps the brand link either to the account or to the root, never both', () => {
    for (const role of ROLES)
      expect(canInCustomer(role, 'brandToAccount') && canGlobally(role, 'brandToRoot')).toBe(false);
  });
});

describe('invitableRoles', () => {
  it('offers every role to staff', () => {
    for (const role of ['accountExecutive', 'supportEngineer', 'productManager', 'admin'] as const) {
      expect(invitableRoles(role)).toEqual(['accountExecutive', 'businessOwner', 'technicalContact', 'endUser']);
    }
  });

  it('offers a project manager their own role and below', () => {
    expect(invitableRoles('businessOwner')).toEqual(['businessOwner', 'technicalContact', 'endUser']);
  });

  it('offers a technical contact technical contacts and end users', () => {
    expect(invitableRoles('technicalContact')).toEqual(['technicalContact', 'endUser']);
  });

  it('offers nothing to end users and nobody', () => {
    expect(invitableRoles('endUser')).toEqual([]);
    expect(invitableRoles(null)).toEqual([]);
    expect(invitableRoles(undefined)).toEqual([]);
  });
});
