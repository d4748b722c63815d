import type { AccessLevel } from '../../../common/domain';
import type { MemberRole } from '../../../common/roles';
import type { DB } from '../../db';

/**
 * Who receives a notification (docs/notifications.md): enabled members of enabled users, with the
 * event's flag ticked on that membership. Pending invitations have no membership and receive nothing.
 */

export type NotifyFlag =
  | 'notifyLicenseExpiresSoon'
  | 'notifyLicenseExpired'
  | 'notifyProductDownload'
  | 'notifyInvitationAccepted'
  | 'notifyNewVersion'
  | 'notifyNewProductLicense'
  | 'notifyFirstProductDownload'
  | 'notifyEmailError';

export interface Recipient {
  userId: number;
  email: string;
  fullName: string;
  preferredLocale: 'en' | 'fr';
  customerId: number;
}

/** The customer's members (its account executive included) who asked for `flag`. */
export function customerRecipients(
  db: DB,
  input: { customerId: number; flag: NotifyFlag; roles?: readonly MemberRole[]; exceptUserId?: number },
): Promise<Recipient[]> {
  let query = db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select(['users.id as userId', 'users.email', 'users.fullName', 'users.preferredLocale', 'memberships.customerId'])
    .where('memberships.customerId', '=', input.customerId)
    .where('memberships.status', '=', 'enabled')
    .where('users.status', '=', 'enabled')
    .where(`memberships.${input.flag}`, '=', 1);
  if (input.roles) query = query.where('memberships.role', 'in', [...input.roles]);
  if (input.exceptUserId !== undefined) query = query.where('users.id', '!=', input.exceptUserId);
  return query.orderBy('users.id').execute();
}

/**
 * Members whose customer holds a licence of the product, still running, at one of `accessLevels`, and who
 * asked for new versions: one entry per user (the first such customer), however many customers they
 * are a member of.
 */
export async function newVersionRecipients(
  db: DB,
  input: { productKey: string; accessLevels: readonly AccessLevel[]; today: string },
): Promise<Recipient[]> {
  if (input.accessLevels.length === 0) return [];
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .innerJoin('licences', 'licences.customerId', 'memberships.customerId')
    .select(['users.id as userId', 'users.email', 'users.fullName', 'users.preferredLocale', 'memberships.customerId'])
    .where('memberships.notifyNewVersion', '=', 1)
    .where('memberships.status', '=', 'enabled')
    .where('users.status', '=', 'enabled')
    .where('licences.productKey', '=', input.productKey)
    .where('licences.accessLevel', 'in', [...input.accessLevels])
    .where('licences.endDate', '>=', input.today)
    .orderBy('users.id')
    .orderBy('memberships.customerId')
    .execute();
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(row.userId) && seen.add(row.userId));
}

/** The customers `email` is an enabled member of (a mail to that address could not be delivered). */
export async function customersOfEmail(db: DB, email: string): Promise<number[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select('memberships.customerId')
    .where('users.email', '=', email)
    .where('memberships.status', '=', 'enabled')
    .orderBy('memberships.customerId')
    .execute();
  return rows.map((row) => row.customerId);
}

/** What a licence's notifications name. */
export function licenceFacts(db: DB, licenceId: number) {
  return db
    .selectFrom('licences')
    .innerJoin('customers', 'customers.id', 'licences.customerId')
    .innerJoin('products', 'products.key', 'licences.productKey')
    .select([
      'licences.id',
      'licences.customerId',
      'licences.productKey',
      'licences.endDate',
      'customers.name as customerName',
      'products.name as productName',
    ])
    .where('licences.id', '=', licenceId)
    .executeTakeFirst();
}

export function customerName(db: DB, customerId: number) {
  return db.selectFrom('customers').select('name').where('id', '=', customerId).executeTakeFirst();
}

export function userFacts(db: DB, userId: number) {
  return db.selectFrom('users').select(['id', 'email', 'fullName']).where('id', '=', userId).executeTakeFirst();
}

export function versionFacts(db: DB, versionId: number) {
  return db
    .selectFrom('versions')
    .innerJoin('products', 'products.key', 'versions.productKey')
    .select(['versions.id', 'versions.productKey', 'versions.semVer', 'versions.type', 'products.name as productName'])
    .where('versions.id', '=', versionId)
    .executeTakeFirst();
}
