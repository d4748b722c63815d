import type { ColumnType, Generated } from 'kysely';
import type { AuditActorKind } from '../../common/audit';
import type { ProviderSubscriptionStatus, TestCheckoutKind, TestCheckoutSessionStatus } from '../../common/billing';
import type {
  AccessLevel,
  CheckoutStatus,
  CustomizationType,
  CustomizationVersionType,
  DownloadPlatform,
  InstanceArchiveReason,
  InstanceStatus,
  InvitationState,
  MembershipStatus,
  NotificationStatus,
  OutboxStatus,
  PaymentProvider,
  PaymentStatus,
  Platform,
  VersionType,
} from '../../common/domain';
import type { LicenceSigningAlgorithm } from '../../common/api/licence-files';
import type { Locale, MemberRole, UserStatus, UserType } from '../../common/roles';
import type { WebhookDeliveryStatus } from '../../common/webhooks';
import type { TwoFactorChallengeKind } from '../../common/api/two-factor';

/**
 * Tables of the whole model (spec section 3). Columns are snake_case in SQL and camelCase here
 * (CamelCasePlugin). Portable storage, identical on SQLite and PostgreSQL:
 * timestamps are ISO-8601 UTC text, calendar dates are YYYY-MM-DD text, booleans are 0/1 integers,
 * JSON documents are text. See docs/decisions/004-portable-storage.md.
 *
 * Every column typed as a union of string literals or as Bool gets a CHECK constraint in the
 * migration (server/db/constraints.ts); the compiler refuses a new one that has none.
 */
type Bool = 0 | 1;
type Timestamp = string;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  fullName: string;
  type: UserType;
  status: UserStatus;
  preferredLocale: Locale;
  passwordHash: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  lastLoginAt: Timestamp | null;
}

interface SessionsTable {
  /** sha256 of the cookie value; the value itself is never stored */
  id: string;
  userId: number;
  createdAt: Timestamp;
  lastSeenAt: Timestamp;
  ip: string | null;
  userAgent: string | null;
}

interface PasswordResetTokensTable {
  id: Generated<number>;
  userId: number;
  tokenHash: string;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
}

/** A requested change of a user's own e-mail, waiting for the link sent to the new address. */
interface EmailChangeTokensTable {
  id: Generated<number>;
  userId: number;
  newEmail: string;
  tokenHash: string;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
}

interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  ip: string;
  success: Bool;
  createdAt: Timestamp;
}

interface UsedCaptchasTable {
  /** signature of a solved challenge, kept until it expires so it cannot be replayed */
  signature: string;
  expiresAt: Timestamp;
}

export interface CustomersTable {
  id: Generated<number>;
  name: string;
  customerKey: string;
  selfService: Bool;
  /** no payment status here: it is the subscription's (a customer without one has none) */
  billingEmail: string | null;
  crmId: string | null;
  /** when the customer was last pushed to the CRM (migration 029) */
  crmSyncedAt: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /**
   * The end date (YYYY-MM-DD) of the customer's latest licence, null without any: kept by triggers
   * on the licences (migration 015), never written by the portal.
   */
  lastLicenceEnd: Generated<string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface MembershipsTable {
  id: Generated<number>;
  userId: number;
  customerId: number;
  role: MemberRole;
  status: MembershipStatus;
  notifyLicenseExpiresSoon: Generated<Bool>;
  notifyLicenseExpired: Generated<Bool>;
  notifyProductDownload: Generated<Bool>;
  notifyInvitationAccepted: Generated<Bool>;
  notifyNewVersion: Generated<Bool>;
  notifyNewProductLicense: Generated<Bool>;
  notifyFirstProductDownload: Generated<Bool>;
  notifyEmailError: Generated<Bool>;
  createdAt: Timestamp;
}

export interface InvitationsTable {
  id: Generated<number>;
  /** sha256 of the invitation key; the key itself only travels in the mail and the copied link */
  keyHash: string;
  /** the key sealed with a key derived from the server secret, for the admin's copy-link (decision 027) */
  keySealed: string | null;
  /** null for a self-service sign-up until it is confirmed (migration 024) */
  customerId: number | null;
  inviterId: number | null;
  invitedEmail: string;
  invitedFullName: string;
  role: MemberRole;
  locale: Locale;
  /** "expired" is a pending one past expiresAt; at most one pending per (customer, lower(e-mail)) */
  state: InvitationState;
  /**
   * self-service sign-up invitations (docs/decisions/067) carry the sign-up form's data, then the
   * confirmation's answers; at most one pending per lower(e-mail)
   */
  selfService: Bool;
  signupData: string | null;
  sentAt: Timestamp;
  expiresAt: Timestamp;
  acceptedAt: Timestamp | null;
  acceptedUserId: number | null;
  createdAt: Timestamp;
}

export interface ProductsTable {
  key: string;
  name: string;
  description: string;
  customizationType: CustomizationType;
  isSaas: Bool;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface VersionsTable {
  id: Generated<number>;
  productKey: string;
  title: string;
  type: VersionType;
  semVer: string;
  description: string;
  releaseDate: string | null;
  published: Bool;
  /** the order of semantic versions in SQL (server/modules/catalogue/semver-order.ts), from semVer */
  major: number;
  minor: number;
  patch: number;
  preReleaseKey: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface ArtifactsTable {
  id: Generated<number>;
  versionId: number;
  platform: Platform;
  fileName: string;
  storageKey: string;
  size: number;
  sha256: string;
  createdAt: Timestamp;
}

/** A product's API token (migration 011): only its sha256 is kept; revoking deletes the row. */
interface ProductTokensTable {
  id: Generated<number>;
  productKey: string;
  name: string;
  tokenHash: string;
  /** null once that user is deleted */
  createdBy: number | null;
  createdAt: Timestamp;
  lastUsedAt: Timestamp | null;
}

/** The first answer of a creating request sent with an Idempotency-Key (migration 017). */
interface IdempotencyKeysTable {
  /** who sent it: `user:<id>`, `token:<id>` or `anonymous:<ip>` */
  caller: string;
  key: string;
  /** sha256 of the method, path and body: the same key with another request is refused */
  requestHash: string;
  /** null while the first request is under way */
  status: number | null;
  /** the first answer, sealed under the server secret (plugins/idempotency.ts, decision 083) */
  responseBody: string | null;
  createdAt: Timestamp;
}

export interface LicencesTable {
  id: Generated<number>;
  customerId: number;
  /** isSaas is the product's, not repeated here */
  productKey: string;
  hasEntityResolution: Bool;
  accessLevel: AccessLevel;
  startDate: string;
  endDate: string;
  data: string;
  downloadSecret: string;
  customizationId: number | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/**
 * The keys that sign licence files (docs/decisions/032). Every row is published; the one without
 * retiredAt signs (a unique index allows one). A generated key's private half is sealed under the
 * server secret; a configured key (LICENCE_SIGNING_KEY) keeps its private half in the configuration
 * and has none here.
 */
export interface LicenceSigningKeysTable {
  keyId: string;
  algorithm: LicenceSigningAlgorithm;
  /** PEM, SubjectPublicKeyInfo */
  publicKey: string;
  /** PKCS#8 DER sealed with AES-256-GCM under a key derived from SESSION_SECRET; null for a configured key */
  privateKeySealed: string | null;
  createdAt: Timestamp;
  retiredAt: Timestamp | null;
}

export interface CustomizationsTable {
  id: Generated<number>;
  customerId: number;
  productKey: string;
  versionType: CustomizationVersionType;
  customConfig: string;
  enabled: Bool;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface CloudInstancesTable {
  id: Generated<number>;
  customerId: number;
  name: string;
  tier: string;
  status: InstanceStatus;
  url: string | null;
  deleteDataDelayInDays: number | null;
  /** when the archive in force began (migration 025): a data deletion queued for another one does nothing */
  archivedAt: Timestamp | null;
  archivedFor: InstanceArchiveReason | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** The orchestrator's callbacks already applied, by event id, so a replay changes nothing (migration 025). */
interface InstanceCallbacksTable {
  eventId: string;
  instanceId: number;
  receivedAt: Timestamp;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  customerId: number;
  provider: PaymentProvider;
  providerCustomerId: string | null;
  providerSubscriptionId: string | null;
  status: PaymentStatus;
  currentPeriodEnd: Timestamp | null;
  graceUntil: Timestamp | null;
  /** when the service was suspended for want of payment (instances archived); null while it runs (migration 026) */
  suspendedAt: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** The ids of the tokens handed to the support desk, until they expire (migration 029, docs/decisions/072). */
interface SupportJwtIdsTable {
  jti: string;
  userId: number;
  issuedAt: Timestamp;
  expiresAt: Timestamp;
}

/** The payment provider's events already handled, by id (migration 026, docs/billing.md). */
interface BillingEventsTable {
  id: string;
  type: string;
  createdAt: Timestamp;
}

/** A subscription of the built-in test checkout, shaped as Stripe's (migration 026). */
export interface TestCheckoutSubscriptionsTable {
  id: string;
  customerId: number;
  providerCustomerId: string;
  status: ProviderSubscriptionStatus;
  cancelAtPeriodEnd: Bool;
  currentPeriodStart: Timestamp;
  currentPeriodEnd: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A page of the built-in test checkout: a checkout, a billing portal or a new card (migration 026). */
export interface TestCheckoutSessionsTable {
  id: string;
  kind: TestCheckoutKind;
  customerId: number;
  providerCustomerId: string;
  status: TestCheckoutSessionStatus;
  /** the subscription a paid checkout created */
  subscriptionId: string | null;
  amountCents: number;
  currency: string;
  /** where the page leads when done (a checkout's success URL, with the session's id) */
  returnUrl: string;
  /** where a checkout leads when abandoned */
  cancelUrl: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** The secret the built-in test checkout signs its events with when none is configured (migration 026). */
interface TestCheckoutSecretsTable {
  id: Generated<number>;
  secretSealed: string;
  createdAt: Timestamp;
}

export interface PaymentsTable {
  id: Generated<number>;
  customerId: number;
  providerSessionId: string;
  amountCents: number;
  currency: string;
  status: CheckoutStatus;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  customerId: number | null;
  actorId: number | null;
  actorEmail: string | null;
  /** who acted (migration 020); 'user' for the entries written before, but anonymous downloads */
  actorKind: ColumnType<AuditActorKind, AuditActorKind | undefined, AuditActorKind>;
  /** a machine's name: a token's "#id name", an integration's, a job's; null for people */
  actorName: string | null;
  action: string;
  /** JSON: productName, productVersion, productPlatform, invitationFrom, anonymousDownload… */
  data: string;
  createdAt: Timestamp;
}

interface NotificationsTable {
  id: Generated<number>;
  userId: number;
  /** an i18n key rendered in the reader's language, e.g. "notification.newVersion" */
  messageKey: string;
  /** JSON object of the message's parameters (product name, version…) */
  params: string;
  status: NotificationStatus;
  createdAt: Timestamp;
}

/** One download of an artifact; "latest download" and "first download" are read from here. */
export interface DownloadsTable {
  id: Generated<number>;
  licenceId: number;
  versionId: number;
  /** null once the artifact is replaced or deleted: the record of the download stays */
  artifactId: number | null;
  /** null for an anonymous download through the licence's secret URL */
  userId: number | null;
  ip: string | null;
  /** the artifact's platform; null for downloads recorded before it was kept (migration 009) */
  platform: Platform | null;
  createdAt: Timestamp;
}

/** A day's downloads of one version on one platform (docs/decisions/039): the analytics' time series. */
interface DownloadDaysTable {
  /** the UTC day, YYYY-MM-DD */
  day: string;
  productKey: string;
  versionId: number;
  /** 'unknown' for downloads recorded before migration 009 kept the platform */
  platform: DownloadPlatform;
  downloads: number;
}

/** A day's downloads of one product by one customer: the top customers of a range. */
interface CustomerDownloadDaysTable {
  day: string;
  productKey: string;
  customerId: number;
  downloads: number;
  /** the customer's downloads of the product up to and including this day (migration 014) */
  downloadsToDate: number;
}

/** A customer's downloads of every product up to and including each day they downloaded (migration 014). */
interface CustomerDownloadsToDateTable {
  customerId: number;
  day: string;
  downloads: number;
}

/** A customer's first and latest download of a product: first downloads and the share on the latest version. */
interface CustomerProductDownloadsTable {
  customerId: number;
  productKey: string;
  firstAt: Timestamp;
  /** null once the version is deleted */
  firstVersionId: number | null;
  lastAt: Timestamp;
  lastVersionId: number | null;
  downloads: number;
}

interface MailOutboxTable {
  id: Generated<number>;
  toAddress: string;
  subject: string;
  /** the plain body of a row written before migration 031 until the next start seals it; '' since */
  textBody: string;
  htmlBody: string | null;
  /**
   * the text and HTML sealed under the server secret (server/mail/body.ts) while the mail waits;
   * null once the SMTP peer accepted it or it failed for good (decision 083)
   */
  bodySealed: string | null;
  template: string;
  status: OutboxStatus;
  /** delivery attempts that failed or succeeded (its job retries it: server/mail/index.ts) */
  attempts: number;
  lastError: string | null;
  /** a notification's settings page, sent as its List-Unsubscribe header */
  listUnsubscribe: string | null;
  createdAt: Timestamp;
  sentAt: Timestamp | null;
}

/** Where the portal posts signed events (migration 023, docs/webhooks.md). */
export interface WebhookEndpointsTable {
  id: Generated<number>;
  url: string;
  /** JSON array of event names (common/webhooks.ts WEBHOOK_EVENTS) */
  events: string;
  /** the signing secret sealed under the server secret (server/modules/webhooks/secrets.ts) */
  secretSealed: string;
  enabled: Bool;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One event for one endpoint, and how its attempts went (migration 023). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpointId: number;
  /** the event's id (a UUID): the same in every delivery of the event, for receivers to deduplicate */
  eventId: string;
  /** a name of WEBHOOK_EVENTS; no CHECK, so that a new event needs no migration */
  eventType: string;
  /** the JSON body posted, byte for byte, at every attempt */
  payload: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  responseMs: number | null;
  lastError: string | null;
  createdAt: Timestamp;
  deliveredAt: Timestamp | null;
}

/** The OpenID Connect provider's stored models, by model name and id (migration 027, docs/oidc.md). */
export interface OidcModelsTable {
  /** the provider's model name: Session, Interaction, AuthorizationCode, RefreshToken, Grant... */
  model: string;
  id: string;
  /** the provider's payload, as JSON */
  payload: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  /** null: the provider gave no lifetime */
  expiresAt: Timestamp | null;
  consumedAt: Timestamp | null;
}

/** The keys that sign the provider's tokens (migration 027); rotated like the licence signing keys. */
export interface OidcSigningKeysTable {
  keyId: string;
  /** the JWS algorithm (RS256) */
  algorithm: string;
  /** the public half as a JWK, JSON */
  publicJwk: string;
  /** PKCS#8 DER sealed with AES-256-GCM under a key derived from SESSION_SECRET */
  privateKeySealed: string;
  createdAt: Timestamp;
  retiredAt: Timestamp | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  passwordResetTokens: PasswordResetTokensTable;
  emailChangeTokens: EmailChangeTokensTable;
  loginAttempts: LoginAttemptsTable;
  usedCaptchas: UsedCaptchasTable;
  customers: CustomersTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  products: ProductsTable;
  versions: VersionsTable;
  artifacts: ArtifactsTable;
  licences: LicencesTable;
  licenceSigningKeys: LicenceSigningKeysTable;
  oidcModels: OidcModelsTable;
  oidcSigningKeys: OidcSigningKeysTable;
  productTokens: ProductTokensTable;
  idempotencyKeys: IdempotencyKeysTable;
  customizations: CustomizationsTable;
  cloudInstances: CloudInstancesTable;
  instanceCallbacks: InstanceCallbacksTable;
  subscriptions: SubscriptionsTable;
  payments: PaymentsTable;
  auditLog: AuditLogTable;
  notifications: NotificationsTable;
  downloads: DownloadsTable;
  downloadDays: DownloadDaysTable;
  customerDownloadDays: CustomerDownloadDaysTable;
  customerDownloadsToDate: CustomerDownloadsToDateTable;
  customerProductDownloads: CustomerProductDownloadsTable;
  mailOutbox: MailOutboxTable;
  jobSchedules: JobSchedulesTable;
  webhookEndpoints: WebhookEndpointsTable;
  webhookDeliveries: WebhookDeliveriesTable;
  licenceExpiryNotices: LicenceExpiryNoticesTable;
  downloadDigests: DownloadDigestsTable;
  billingEvents: BillingEventsTable;
  testCheckoutSubscriptions: TestCheckoutSubscriptionsTable;
  testCheckoutSessions: TestCheckoutSessionsTable;
  testCheckoutSecrets: TestCheckoutSecretsTable;
  passkeys: PasskeysTable;
  totpAuthenticators: TotpAuthenticatorsTable;
  recoveryCodes: RecoveryCodesTable;
  twoFactorChallenges: TwoFactorChallengesTable;
  supportJwtIds: SupportJwtIdsTable;
}

/** The next slot of each recurring job (server/jobs/runner.ts); written only by the job runner. */
interface JobSchedulesTable {
  name: string;
  cron: string;
  timeZone: string;
  nextRunAt: Timestamp;
}

/**
 * SQLite's job queue (server/jobs/sqlite-store.ts), outside `Database` since PostgreSQL has no such
 * table (pg-boss keeps its jobs in its own schema): the store reaches it with `db.withTables`.
 */
export interface JobsTable {
  id: Generated<number>;
  name: string;
  /** JSON */
  payload: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  runAt: Timestamp;
  singletonKey: string | null;
  retryCount: Generated<number>;
  retryLimit: number;
  /** seconds */
  retryDelay: number;
  retryBackoff: 0 | 1;
  /** seconds an attempt may run */
  expireIn: number;
  lastError: string | null;
  createdAt: Timestamp;
  startedAt: Timestamp | null;
  completedAt: Timestamp | null;
}

/** Which licence was told about for which end date (server/modules/notifications/expiry.ts). */
interface LicenceExpiryNoticesTable {
  licenceId: number;
  endDate: string;
  kind: 'expiresSoon' | 'expired';
  createdAt: Timestamp;
}

/** Per customer, the last download a digest told of (server/modules/notifications/digest.ts). */
interface DownloadDigestsTable {
  customerId: number;
  lastDownloadId: number;
}

/** A WebAuthn credential of a user (server/modules/two-factor, docs/decisions/071). */
interface PasskeysTable {
  id: Generated<number>;
  userId: number;
  /** base64url, as the authenticator reports it */
  credentialId: string;
  /** base64url of the COSE public key */
  publicKey: string;
  counter: ColumnType<number, number | undefined, number>;
  /** JSON array of the authenticator's transports */
  transports: ColumnType<string, string | undefined, string>;
  name: string;
  createdAt: Timestamp;
  lastUsedAt: Timestamp | null;
}

/** A user's authenticator app (RFC 6238): its secret sealed under the server secret. */
interface TotpAuthenticatorsTable {
  id: Generated<number>;
  userId: number;
  name: string;
  secretSealed: string;
  /** null while the enrolment waits for its first code */
  confirmedAt: Timestamp | null;
  /** the time step of the last accepted code: a code is accepted once */
  lastStep: number | null;
  createdAt: Timestamp;
  lastUsedAt: Timestamp | null;
}

/** A recovery code: its SHA-256 only, used once. */
interface RecoveryCodesTable {
  id: Generated<number>;
  userId: number;
  codeHash: string;
  createdAt: Timestamp;
  usedAt: Timestamp | null;
}

/** A pending sign-in or a passkey registration's challenge, keyed by the SHA-256 of its token. */
interface TwoFactorChallengesTable {
  id: string;
  kind: TwoFactorChallengeKind;
  userId: number | null;
  /** the address typed at the password step: failures count against it (decision 018) */
  loginEmail: string | null;
  /** the WebAuthn challenge (base64url), once options were asked for */
  challenge: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  expiresAt: Timestamp;
}
