import { z } from 'zod/mini';
import { MEMBER_ROLES } from '../roles';

/**
 * What the caller may do with what an answer is about (`can`), computed on the server by the entity's
 * policy (server/modules/<area>/policy.ts, docs/decisions/056). The client shows or hides an action by
 * these, and re-derives no rule from a role; the server still decides every call again.
 */
function flags<const K extends string>(names: readonly K[]) {
  return z.object(Object.fromEntries(names.map((name) => [name, z.boolean()])) as Record<K, z.ZodMiniBoolean>);
}

/** The signed-in user's own (the profile): pages, staff actions and the top bar. */
export const PROFILE_ABILITIES = [
  'viewHome',
  'viewCustomers',
  'viewProducts',
  'manageUsers',
  'addCustomer',
  'addProduct',
  'viewDownloadAnalytics',
  /** the webhooks page (docs/webhooks.md) */
  'manageWebhooks',
  /** the Background work page: the job engine's counts and failed jobs */
  'manageBackgroundWork',
  /** the brand goes to the staff's home page */
  'brandToRoot',
  /** the brand goes to the account on screen (those who work inside their accounts) */
  'brandToAccount',
  'homeLink',
  'accountExecutiveContact',
  /** is shown the licences ending soon (who renews licences) */
  'renewLicences',
] as const;
export const ProfileAbilities = flags(PROFILE_ABILITIES);
export type ProfileAbilities = z.infer<typeof ProfileAbilities>;

/** One customer, as the caller's role there allows (spec sections 2, 4 and 6). */
export const CUSTOMER_ABILITIES = [
  'edit',
  'viewLicences',
  'addLicence',
  'viewLicenceDetails',
  'viewLicenceAccessLevels',
  'download',
  'viewTeam',
  'viewRecentActions',
  'chooseInvitationLocale',
  'copyInvitationLink',
  'changeAccountExecutive',
  'viewSubscription',
  'pay',
  'viewBillingContact',
  'telemetryAndSync',
  /** may push the customer to the CRM, and a CRM is set up: the sync icon shows */
  'syncWithCrm',
  'viewSaasLogs',
  /** sees the page's sections while a self-service subscription is not running */
  'viewUnpaidAccount',
] as const;
export const CustomerAbilities = z.object({
  ...flags(CUSTOMER_ABILITIES).shape,
  /** the member roles the caller may give, in an invitation or to a member; empty: may invite nobody */
  inviteRoles: z.array(z.enum(MEMBER_ROLES)),
});
export type CustomerAbilities = z.infer<typeof CustomerAbilities>;

/** One licence of a customer. */
const LICENCE_ABILITIES = ['renew', 'edit', 'customize', 'download', 'viewDetails'] as const;
export const LicenceAbilities = flags(LICENCE_ABILITIES);
export type LicenceAbilities = z.infer<typeof LicenceAbilities>;

/** One member of a customer. */
const MEMBER_ABILITIES = ['changeStatus', 'editSettings'] as const;
export const MemberAbilities = flags(MEMBER_ABILITIES);
export type MemberAbilities = z.infer<typeof MemberAbilities>;

/** One pending invitation. */
const INVITATION_ABILITIES = ['cancel', 'resend', 'copyLink'] as const;
export const InvitationAbilities = flags(INVITATION_ABILITIES);
export type InvitationAbilities = z.infer<typeof InvitationAbilities>;

/** One product of the catalogue. */
const PRODUCT_ABILITIES = ['edit', 'manageVersions'] as const;
export const ProductAbilities = flags(PRODUCT_ABILITIES);
export type ProductAbilities = z.infer<typeof ProductAbilities>;

/** One version of a product: `upload` and `deleteArtifacts` only while it is unpublished. */
const VERSION_ABILITIES = ['edit', 'publish', 'upload', 'deleteArtifacts'] as const;
export const VersionAbilities = flags(VERSION_ABILITIES);
export type VersionAbilities = z.infer<typeof VersionAbilities>;

/** One customization of a customer's licence: changing it (its configuration, version type and flag). */
const CUSTOMIZATION_ABILITIES = ['edit'] as const;
export const CustomizationAbilities = flags(CUSTOMIZATION_ABILITIES);
export type CustomizationAbilities = z.infer<typeof CustomizationAbilities>;

/** One user account (the Users page): `changeStatus` is refused on one's own account. */
const USER_ABILITIES = ['edit', 'changeStatus'] as const;
export const UserAbilities = flags(USER_ABILITIES);
export type UserAbilities = z.infer<typeof UserAbilities>;
