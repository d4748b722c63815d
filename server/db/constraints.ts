import { type CreateTableBuilder, type Expression, type SelectType, sql } from 'kysely';
import {
  ACCESS_LEVELS,
  CHECKOUT_STATUSES,
  CUSTOMIZATION_TYPES,
  CUSTOMIZATION_VERSION_TYPES,
  DOWNLOAD_PLATFORMS,
  INSTANCE_ARCHIVE_REASONS,
  INSTANCE_STATUSES,
  INVITATION_STATES,
  MEMBERSHIP_STATUSES,
  NOTIFICATION_STATUSES,
  OUTBOX_STATUSES,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
  PLATFORMS,
  VERSION_TYPES,
} from '../../common/domain';
import { LICENCE_SIGNING_ALGORITHMS } from '../../common/api/licence-files';
import { AUDIT_ACTOR_KINDS } from '../../common/audit';
import {
  PROVIDER_SUBSCRIPTION_STATUSES,
  TEST_CHECKOUT_KINDS,
  TEST_CHECKOUT_SESSION_STATUSES,
} from '../../common/billing';
import { WEBHOOK_DELIVERY_STATUSES } from '../../common/webhooks';
import { TWO_FACTOR_CHALLENGE_KINDS } from '../../common/api/two-factor';
import { EXPIRY_NOTICE_KINDS } from '../../common/notifications';
import { LOCALES, MEMBER_ROLES, USER_STATUSES, USER_TYPES } from '../../common/roles';
import type { Database } from './schema';

/**
 * The allowed values of every enumerated column and the 0/1 columns, taken from the arrays in
 * common/ so that the database, the API schemas and the UI cannot drift apart. The types below make
 * the compiler list every such column of schema.ts: a new enumerated or boolean column that is not
 * declared here fails the typecheck, and the migration turns each entry into a CHECK constraint.
 */

type Stored<Row, K extends keyof Row> = NonNullable<SelectType<Row[K]>>;
type IsEnum<T> = [T] extends [string] ? (string extends T ? false : true) : false;
type IsBool<T> = [T] extends [0 | 1] ? ([0 | 1] extends [T] ? true : false) : false;
type EnumColumns<Row> = { [K in keyof Row]-?: IsEnum<Stored<Row, K>> extends true ? K : never }[keyof Row];
type BoolColumns<Row> = { [K in keyof Row]-?: IsBool<Stored<Row, K>> extends true ? K : never }[keyof Row];

export type TableName = keyof Database;

export const ENUM_COLUMNS: {
  [T in TableName]: { [C in EnumColumns<Database[T]>]: readonly Stored<Database[T], C>[] };
} = {
  users: { type: USER_TYPES, status: USER_STATUSES, preferredLocale: LOCALES },
  sessions: {},
  passwordResetTokens: {},
  emailChangeTokens: {},
  loginAttempts: {},
  usedCaptchas: {},
  customers: {},
  memberships: { role: MEMBER_ROLES, status: MEMBERSHIP_STATUSES },
  invitations: { role: MEMBER_ROLES, locale: LOCALES, state: INVITATION_STATES },
  products: { customizationType: CUSTOMIZATION_TYPES },
  versions: { type: VERSION_TYPES },
  artifacts: { platform: PLATFORMS },
  licences: { accessLevel: ACCESS_LEVELS },
  licenceSigningKeys: { algorithm: LICENCE_SIGNING_ALGORITHMS },
  oidcModels: {},
  oidcSigningKeys: {},
  productTokens: {},
  idempotencyKeys: {},
  customizations: { versionType: CUSTOMIZATION_VERSION_TYPES },
  cloudInstances: { status: INSTANCE_STATUSES, archivedFor: INSTANCE_ARCHIVE_REASONS },
  instanceCallbacks: {},
  subscriptions: { provider: PAYMENT_PROVIDERS, status: PAYMENT_STATUSES },
  payments: { status: CHECKOUT_STATUSES },
  auditLog: { actorKind: AUDIT_ACTOR_KINDS },
  notifications: { status: NOTIFICATION_STATUSES },
  downloads: { platform: PLATFORMS },
  downloadDays: { platform: DOWNLOAD_PLATFORMS },
  customerDownloadDays: {},
  customerDownloadsToDate: {},
  customerProductDownloads: {},
  mailOutbox: { status: OUTBOX_STATUSES },
  jobSchedules: {},
  webhookEndpoints: {},
  webhookDeliveries: { status: WEBHOOK_DELIVERY_STATUSES },
  licenceExpiryNotices: { kind: EXPIRY_NOTICE_KINDS },
  downloadDigests: {},
  billingEvents: {},
  testCheckoutSubscriptions: { status: PROVIDER_SUBSCRIPTION_STATUSES },
  testCheckoutSessions: { kind: TEST_CHECKOUT_KINDS, status: TEST_CHECKOUT_SESSION_STATUSES },
  testCheckoutSecrets: {},
  passkeys: {},
  totpAuthenticators: {},
  recoveryCodes: {},
  twoFactorChallenges: { kind: TWO_FACTOR_CHALLENGE_KINDS },
  supportJwtIds: {},
};

const BOOL_COLUMNS: { [T in TableName]: { [C in BoolColumns<Database[T]>]: true } } = {
  users: {},
  sessions: {},
  passwordResetTokens: {},
  emailChangeTokens: {},
  loginAttempts: { success: true },
  usedCaptchas: {},
  customers: { selfService: true },
  memberships: {
    notifyLicenseExpiresSoon: true,
    notifyLicenseExpired: true,
    notifyProductDownload: true,
    notifyInvitationAccepted: true,
    notifyNewVersion: true,
    notifyNewProductLicense: true,
    notifyFirstProductDownload: true,
    notifyEmailError: true,
  },
  invitations: { selfService: true },
  products: { isSaas: true },
  versions: { published: true },
  artifacts: {},
  licences: { hasEntityResolution: true },
  licenceSigningKeys: {},
  oidcModels: {},
  oidcSigningKeys: {},
  productTokens: {},
  idempotencyKeys: {},
  customizations: { enabled: true },
  cloudInstances: {},
  instanceCallbacks: {},
  subscriptions: {},
  payments: {},
  auditLog: {},
  notifications: {},
  downloads: {},
  downloadDays: {},
  customerDownloadDays: {},
  customerDownloadsToDate: {},
  customerProductDownloads: {},
  mailOutbox: {},
  jobSchedules: {},
  webhookEndpoints: { enabled: true },
  webhookDeliveries: {},
  licenceExpiryNotices: {},
  downloadDigests: {},
  billingEvents: {},
  testCheckoutSubscriptions: { cancelAtPeriodEnd: true },
  testCheckoutSessions: {},
  testCheckoutSecrets: {},
  passkeys: {},
  totpAuthenticators: {},
  recoveryCodes: {},
  twoFactorChallenges: {},
  supportJwtIds: {},
};

/** The SQL name of a table or column of schema.ts (what CamelCasePlugin does to it). */
export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** `col IN ('a', 'b', …)` with the values inlined: DDL takes no bound parameters. */
function oneOf(column: string, values: readonly (string | number)[]): Expression<unknown> {
  return sql`${sql.ref(snake(column))} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}

/** Every constraint of a table as [name, column, allowed values]; the tests walk the same list. */
export function checksOf(table: TableName): [name: string, column: string, values: readonly (string | number)[]][] {
  const enums = Object.entries(ENUM_COLUMNS[table] as Record<string, readonly string[]>);
  const bools = Object.keys(BOOL_COLUMNS[table]).map((c) => [c, [0, 1]] as const);
  return [...enums, ...bools].map(([column, values]) => [`${snake(table)}_${snake(column)}_check`, column, values]);
}

/**
 * Columns a later migration adds with their CHECK (ALTER TABLE … ADD COLUMN … CHECK): the CREATE TABLE
 * of an earlier migration must not name them.
 */
const ADDED_LATER: Partial<Record<TableName, readonly string[]>> = {
  downloads: ['platform'], // 009_download_platform
  auditLog: ['actorKind'], // 020_audit_actor
  cloudInstances: ['archivedFor'], // 025_instance_lifecycle
};

/** Adds the table's CHECK constraints to its CREATE TABLE (SQLite cannot add them afterwards). */
export function withChecks(table: TableName) {
  return <B extends CreateTableBuilder<any, any>>(builder: B): B =>
    checksOf(table)
      .filter(([, column]) => !ADDED_LATER[table]?.includes(column))
      .reduce((b, [name, column, values]) => b.addCheckConstraint(name, oneOf(column, values)) as B, builder);
}
