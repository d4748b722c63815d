import { describe, expect, it } from 'vitest';
import { CAPABILITIES, type Capability, can, invitableRoles, rolesWith } from './permissions';
import { ROLES, type Role } from './roles';

/** Spec section 6, row by row, and the page and top-bar rules of section 2. */
const EXPECTED: Record<Capability, Role[]> = {
  addCustomer: ['admin'],
  editCustomer: ['admin'],
  addProduct: ['admin'],
  manageUsers: ['admin'],
  editProduct: ['admin'],
  copyInvitationLink: ['admin'],
  telemetryAndSync: ['accountExecutive', 'admin', 'productManager', 'supportEngineer'],
  manageLicences: ['accountExecutive', 'admin', 'productManager'],
  manageVersions: ['productManager', 'admin'],
  viewTeam: ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer'],
  chooseInvitationLocale: ['accountExecutive', 'admin'],
  viewSaasLogs: ['supportEngineer', 'admin'],
  viewHome: ['productManager', 'supportEngineer', 'admin'],
  viewCustomers: ['supportEngineer', 'productManager', 'admin'],
  viewProducts: ['productManager', 'admin'],
  viewLicenceDetails: ['accountExecutive', 'admin', 'productManager', 'supportEngineer'],
  download: ['accountExecutive', 'admin', 'businessOwner', 'supportEngineer', 'technicalContact'],
  viewSubscription: ['businessOwner', 'admin', 'accountExecutive', 'supportEngineer'],
  pay: ['businessOwner', 'admin', 'supportEngineer'],
  viewBillingContact: ['businessOwner'],
  brandToAccount: ['businessOwner', 'technicalContact', 'accountExecutive'],
  brandToRoot: ['productManager', 'supportEngineer', 'admin'],
  homeLink: ['technicalContact', 'businessOwner', 'accountExecutive'],
  accountExecutiveContact: ['technicalContact', 'businessOwner'],
  selectAccount: ['accountExecutive', 'businessOwner', 'technicalContact', 'endUser'],
};

describe('capability table', () => {
  it('lists exactly the expected capabilities', () => {
    expect(Object.keys(CAPABILITIES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [capability, roles] of Object.entries(EXPECTED) as [Capability, Role[]][]) {
    it(`grants ${capability} to ${roles.join(', ')} only`, () => {
      expect([...rolesWith(capability)].sort()).toEqual([...roles].sort());
      for (const role of ROLES) expect(can(role, capability), role).toBe(roles.includes(role));
      expect(can(null, capability)).toBe(false);
      expect(can(undefined, capability)).toBe(false);
    });
  }

  it('keeps the brand link either to the account or to the root, never both', () => {
    for (const role of ROLES) expect(can(role, 'brandToAccount') && can(role, 'brandToRoot')).toBe(false);
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
