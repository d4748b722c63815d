import type { MembershipSettings } from '../../../common/api/settings';
import { NOTIFICATION_SETTINGS, type NotificationSetting } from '../../../common/domain';
import type { NotificationSettings } from '../../../common/api/customers';
import type { MemberRole } from '../../../common/roles';
import type { DB } from '../../db';

const FLAG_COLUMNS = NOTIFICATION_SETTINGS.map((flag) => `memberships.${flag}` as const);

type FlagRow = Record<NotificationSetting, number | boolean>;

function settingsOf(row: FlagRow): NotificationSettings {
  return Object.fromEntries(
    NOTIFICATION_SETTINGS.map((flag) => [flag, Number(row[flag]) === 1]),
  ) as NotificationSettings;
}

interface MembershipWithSettings extends MembershipSettings {
  userId: number;
  userEmail: string;
  userFullName: string;
}

function memberships(db: DB) {
  return db
    .selectFrom('memberships')
    .innerJoin('customers', 'customers.id', 'memberships.customerId')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select([
      'memberships.id as membershipId',
      'memberships.customerId',
      'customers.name as customerName',
      'memberships.role',
      'memberships.userId',
      'users.email as userEmail',
      'users.fullName as userFullName',
      ...FLAG_COLUMNS,
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof memberships>['execute']>>[number];

function toMembership(row: Row): MembershipWithSettings {
  return {
    membershipId: row.membershipId,
    customerId: row.customerId,
    customerName: row.customerName,
    role: row.role as MemberRole,
    userId: row.userId,
    userEmail: row.userEmail,
    userFullName: row.userFullName,
    settings: settingsOf(row as unknown as FlagRow),
  };
}

export async function findMembership(db: DB, membershipId: number): Promise<MembershipWithSettings | undefined> {
  const row = await memberships(db).where('memberships.id', '=', membershipId).executeTakeFirst();
  return row && toMembership(row);
}

/** Every enabled account-executive membership of a user: their flags are one set for all their customers. */
export async function accountExecutiveMemberships(db: DB, userId: number): Promise<MembershipWithSettings[]> {
  const rows = await memberships(db)
    .where('memberships.userId', '=', userId)
    .where('memberships.role', '=', 'accountExecutive')
    .where('memberships.status', '=', 'enabled')
    .orderBy('memberships.id')
    .execute();
  return rows.map(toMembership);
}

/** A user's enabled memberships by customer name, one page, with their number. */
export async function listMemberships(db: DB, userId: number, page: { offset: number; length: number }) {
  const mine = db
    .selectFrom('memberships')
    .where('memberships.userId', '=', userId)
    .where('memberships.status', '=', 'enabled');
  const [rows, count] = await Promise.all([
    memberships(db)
      .where('memberships.userId', '=', userId)
      .where('memberships.status', '=', 'enabled')
      .orderBy('customers.name')
      .orderBy('memberships.id')
      .limit(page.length)
      .offset(page.offset)
      .execute(),
    mine.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toMembership), total: Number(count.n) };
}

export async function updateFlags(db: DB, membershipId: number, settings: Partial<NotificationSettings>) {
  const values = Object.fromEntries(
    Object.entries(settings)
      .filter(([, value]) => value !== undefined)
      .map(([flag, value]) => [flag, value ? 1 : 0]),
  );
  await db.updateTable('memberships').set(values).where('id', '=', membershipId).execute();
}
