import type { Role } from '../../common/roles';

/** The links of the top bar, by data-testid (the contract with the client's TopBar). */
export const TOP_BAR_LINKS = [
  'nav-brand',
  'nav-home',
  'nav-customers',
  'nav-products',
  'nav-users',
  'nav-ae-contact',
] as const;
export type TopBarLink = (typeof TOP_BAR_LINKS)[number];

/**
 * Spec section 2 "Top bar", read role by role. Written out rather than computed from
 * common/permissions.ts so that the journeys check the capability table instead of repeating it;
 * top-bar.spec.ts also checks that the two agree.
 * nav-ae-contact assumes the client's customer has an account executive (the demo customer has one).
 */
export const EXPECTED_TOP_BAR: Record<Role, readonly TopBarLink[]> = {
  admin: ['nav-brand', 'nav-customers', 'nav-products', 'nav-users'],
  productManager: ['nav-brand', 'nav-customers', 'nav-products'],
  supportEngineer: ['nav-brand', 'nav-customers'],
  accountExecutive: ['nav-brand', 'nav-home'],
  businessOwner: ['nav-brand', 'nav-home', 'nav-ae-contact'],
  technicalContact: ['nav-brand', 'nav-home', 'nav-ae-contact'],
  endUser: ['nav-brand'],
};
