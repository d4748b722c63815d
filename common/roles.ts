/** User types, member roles and the role a user holds in one customer (spec sections 3 and 6). */
export const USER_TYPES = ['admin', 'accountExecutive', 'productManager', 'supportEngineer', 'client'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const STAFF_TYPES = ['admin', 'accountExecutive', 'productManager', 'supportEngineer'] as const;
export type StaffType = (typeof STAFF_TYPES)[number];

export const MEMBER_ROLES = ['accountExecutive', 'businessOwner', 'technicalContact', 'endUser'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const ROLES = [
  'admin',
  'accountExecutive',
  'productManager',
  'supportEngineer',
  'businessOwner',
  'technicalContact',
  'endUser',
] as const;
export type Role = (typeof ROLES)[number];

export const USER_STATUSES = ['enabled', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const LOCALES = ['en', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

const CLIENT_ROLES: readonly MemberRole[] = ['businessOwner', 'technicalContact', 'endUser'];

/**
 * The staff types that keep their type as their role in every customer (spec section 6, "Role
 * derivation"). They alone hold a role outside any customer; an account executive does not: they are
 * one only in the customers whose membership says so.
 */
const GLOBAL_ROLES = ['admin', 'productManager', 'supportEngineer'] as const;
export type GlobalRole = (typeof GLOBAL_ROLES)[number];

export function isGlobalRole(value: unknown): value is GlobalRole {
  return (GLOBAL_ROLES as readonly unknown[]).includes(value);
}

/** The role a user holds outside any customer: their type for admin, product and support staff, else none. */
export function globalRole(userType: UserType): GlobalRole | null {
  return isGlobalRole(userType) ? userType : null;
}

/**
 * The role a user holds towards one customer (spec section 6, "Role derivation").
 * admin, supportEngineer and productManager keep their type everywhere; an accountExecutive counts as
 * one only where their membership says so; a client takes the role of their membership.
 * Returns null when the user holds no role in that customer.
 */
export function deriveRole(userType: UserType, memberRole: MemberRole | null | undefined): Role | null {
  if (isGlobalRole(userType)) return userType;
  switch (userType) {
    case 'accountExecutive':
      return memberRole === 'accountExecutive' ? 'accountExecutive' : null;
    case 'client':
      return memberRole && CLIENT_ROLES.includes(memberRole) ? memberRole : null;
    default:
      return null;
  }
}

/** Priority used when one role must stand for a client with several memberships (the top bar). */
const CLIENT_ROLE_PRIORITY: readonly MemberRole[] = ['businessOwner', 'technicalContact', 'endUser'];

/**
 * The role shown for the signed-in user as a whole ("yourRole" of the profile): the type for staff,
 * the strongest membership role for a client (null when the client belongs to no customer yet).
 */
export function profileRole(userType: UserType, memberRoles: readonly MemberRole[]): Role | null {
  if (userType !== 'client') return userType;
  return CLIENT_ROLE_PRIORITY.find((r) => memberRoles.includes(r)) ?? null;
}

export function isStaff(userType: UserType): userType is StaffType {
  return userType !== 'client';
}
