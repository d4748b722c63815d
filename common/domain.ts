/** Enumerations of the whole model (spec sections 3 and 4), shared by migrations, schemas and UI. */
export const ACCESS_LEVELS = ['alpha', 'beta', 'stable'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const VERSION_TYPES = ['eol', 'maintenance', 'stable', 'beta', 'alpha'] as const;
export type VersionType = (typeof VERSION_TYPES)[number];

export const CUSTOMIZATION_TYPES = ['none', 'lke', 'ogma'] as const;
export type CustomizationType = (typeof CUSTOMIZATION_TYPES)[number];

export const CUSTOMIZATION_VERSION_TYPES = ['stable', 'beta', 'alpha'] as const;

export const PLATFORMS = ['windows', 'linux', 'osx', 'docker', 'npm', 'generic'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const LICENCE_STATUSES = ['valid', 'warning', 'grace', 'invalid'] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

export const MEMBER_STATUSES = ['enabled', 'disabled', 'pending'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** Stored invitation states; "expired" is derived from the expiry date when pending. */
export const INVITATION_STATES = ['pending', 'accepted', 'cancelled'] as const;
export const INVITATION_STATUSES = ['pending', 'expired'] as const;

export const INSTANCE_STATUSES = [
  'creating',
  'provisioning',
  'provisioned',
  'archived',
  'deleting',
  'deleted',
] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

export const PAYMENT_STATUSES = [
  'processing',
  'initiated',
  'trial',
  'paid',
  'grace',
  'pastDue',
  'unpaid',
  'canceled',
  'toBeCanceled',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const USE_CASES = [
  'financial-crime',
  'cyber-security',
  'data-governance',
  'intelligence',
  'competitive-intelligence',
  'supply-chain',
  'health',
  'knowledge-management',
  'plm',
  'other',
] as const;
export const GRAPH_DATABASES = ['neo4j', 'cosmos', 'memgraph', 'spanner', 'neptune', 'other'] as const;

export const NOTIFICATION_SETTINGS = [
  'notifyLicenseExpiresSoon',
  'notifyLicenseExpired',
  'notifyProductDownload',
  'notifyInvitationAccepted',
  'notifyNewVersion',
  'notifyNewProductLicense',
  'notifyFirstProductDownload',
  'notifyEmailError',
] as const;
export type NotificationSetting = (typeof NOTIFICATION_SETTINGS)[number];
