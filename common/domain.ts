/** Enumerations of the whole model (spec sections 3 and 4), shared by migrations, schemas and UI. */
export const ACCESS_LEVELS = ['alpha', 'beta', 'stable'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export const VERSION_TYPES = ['eol', 'maintenance', 'stable', 'beta', 'alpha'] as const;
export type VersionType = (typeof VERSION_TYPES)[number];

/**
 * The version types a licence's access level lets its customer see (decisions.md): stable sees stable,
 * maintenance and eol; beta also beta; alpha every type. Unpublished versions are never seen.
 */
export const VISIBLE_VERSION_TYPES: Record<AccessLevel, readonly VersionType[]> = {
  stable: ['stable', 'maintenance', 'eol'],
  beta: ['stable', 'maintenance', 'eol', 'beta'],
  alpha: VERSION_TYPES,
};

export const CUSTOMIZATION_TYPES = ['none', 'lke', 'ogma'] as const;
export type CustomizationType = (typeof CUSTOMIZATION_TYPES)[number];

export const CUSTOMIZATION_VERSION_TYPES = ['stable', 'beta', 'alpha'] as const;
export type CustomizationVersionType = (typeof CUSTOMIZATION_VERSION_TYPES)[number];

export const PLATFORMS = ['windows', 'linux', 'osx', 'docker', 'npm', 'generic'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** A download's platform as the analytics count it: 'unknown' for downloads recorded before it was kept. */
export const DOWNLOAD_PLATFORMS = [...PLATFORMS, 'unknown'] as const;
export type DownloadPlatform = (typeof DOWNLOAD_PLATFORMS)[number];

export const LICENCE_STATUSES = ['valid', 'warning', 'grace', 'invalid'] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

/** A stored membership is enabled or disabled; "pending" members are invitations. */
export const MEMBERSHIP_STATUSES = ['enabled', 'disabled'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/** Stored invitation states; "expired" is derived from the expiry date when pending. */
export const INVITATION_STATES = ['pending', 'accepted', 'cancelled'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];
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

/** Why an instance was archived: its subscription's grace ended unpaid, or staff did it. */
export const INSTANCE_ARCHIVE_REASONS = ['unpaid', 'staff'] as const;
export type InstanceArchiveReason = (typeof INSTANCE_ARCHIVE_REASONS)[number];

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

/** Who runs a subscription: the built-in test checkout (no provider configured) or Stripe. */
export const PAYMENT_PROVIDERS = ['builtin', 'stripe'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** The state of one checkout session at the payment provider. */
export const CHECKOUT_STATUSES = ['open', 'complete', 'expired', 'failed'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

export const NOTIFICATION_STATUSES = ['unread', 'read'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** A mail waiting in the outbox, delivered, or given up after its last attempt. */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

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
export type UseCase = (typeof USE_CASES)[number];
export type GraphDatabase = (typeof GRAPH_DATABASES)[number];

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
