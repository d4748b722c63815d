import { describe, expect, it } from 'vitest';
import {
  deriveRole,
  isLocale,
  isStaff,
  MEMBER_ROLES,
  type MemberRole,
  profileRole,
  STAFF_TYPES,
  USER_TYPES,
  type UserType,
} from './roles';

const memberRoles: (MemberRole | null)[] = [null, ...MEMBER_ROLES];

describe('deriveRole', () => {
  it('keeps the type of admins, support engineers and product managers, whatever the membership', () => {
    for (const type of ['admin', 'supportEngineer', 'productManager'] as const) {
      for (const memberRole of memberRoles) expect(deriveRole(type, memberRole)).toBe(type);
      expect(deriveRole(type, undefined)).toBe(type);
    }
  });

  it('counts an account executive only where their membership role is accountExecutive', () => {
    expect(deriveRole('accountExecutive', 'accountExecutive')).toBe('accountExecutive');
    for (const memberRole of [null, undefined, 'businessOwner', 'technicalContact', 'endUser'] as const) {
      expect(deriveRole('accountExecutive', memberRole)).toBeNull();
    }
  });

  it('gives a client the client role of their membership, and nothing else', () => {
    expect(deriveRole('client', 'businessOwner')).toBe('businessOwner');
    expect(deriveRole('client', 'technicalContact')).toBe('technicalContact');
    expect(deriveRole('client', 'endUser')).toBe('endUser');
    expect(deriveRole('client', 'accountExecutive')).toBeNull();
    expect(deriveRole('client', null)).toBeNull();
    expect(deriveRole('client', undefined)).toBeNull();
  });

  it('covers every type and membership combination', () => {
    const table = Object.fromEntries(
      USER_TYPES.map((type) => [type, memberRoles.map((role) => deriveRole(type, role))]),
    ) as Record<UserType, unknown[]>;
    // columns: no membership, accountExecutive, businessOwner, technicalContact, endUser
    expect(table).toEqual({
      admin: ['admin', 'admin', 'admin', 'admin', 'admin'],
      accountExecutive: [null, 'accountExecutive', null, null, null],
      productManager: ['productManager', 'productManager', 'productManager', 'productManager', 'productManager'],
      supportEngineer: ['supportEngineer', 'supportEngineer', 'supportEngineer', 'supportEngineer', 'supportEngineer'],
      client: [null, null, 'businessOwner', 'technicalContact', 'endUser'],
    });
  });
});

describe('profileRole', () => {
  it('is the type for staff', () => {
    for (const type of STAFF_TYPES) expect(profileRole(type, [])).toBe(type);
    expect(profileRole('accountExecutive', ['accountExecutive'])).toBe('accountExecutive');
  });

  it('is the strongest membership role for a client, or none', () => {
    expect(profileRole('client', [])).toBeNull();
    expect(profileRole('client', ['endUser'])).toBe('endUser');
    expect(profileRole('client', ['endUser', 'technicalContact'])).toBe('technicalContact');
    expect(profileRole('client', ['technicalContact', 'businessOwner', 'endUser'])).toBe('businessOwner');
    expect(profileRole('client', ['accountExecutive'])).toBeNull();
  });
});

describe('user types and locales', () => {
  it('has four staff types that can be created, and client', () => {
    expect([...STAFF_TYPES]).toEqual(['admin', 'accountExecutive', 'productManager', 'supportEngineer']);
    expect(USER_TYPES).toContain('client');
    for (const type of STAFF_TYPES) expect(isStaff(type)).toBe(true);
    expect(isStaff('client')).toBe(false);
  });

  it('knows en and fr only', () => {
    expect(isLocale('en')).toBe(true);
    expect(isLocale('fr')).toBe(true);
    expect(isLocale('de')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
