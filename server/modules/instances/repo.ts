import type { Insertable, Selectable } from 'kysely';
import type { InstanceArchiveReason, InstanceStatus } from '../../../common/domain';
import { type DB, nowIso } from '../../db';
import type { CloudInstancesTable } from '../../db/schema';

/** SQL of cloud instances (docs/instances.md): the instances, their status moves, the callbacks applied. */

export type InstanceRow = Selectable<CloudInstancesTable>;

type NewInstance = Omit<Insertable<CloudInstancesTable>, 'id' | 'createdAt' | 'updatedAt'> & { createdAt?: string };

export async function insertCloudInstance(db: DB, instance: NewInstance) {
  const now = instance.createdAt ?? nowIso();
  return db
    .insertInto('cloudInstances')
    .values({ ...instance, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export function findInstance(db: DB, id: number): Promise<InstanceRow | undefined> {
  return db.selectFrom('cloudInstances').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The instance with its customer's name and key, as mails, logs links and the orchestrator need them. */
export function instanceWithCustomer(db: DB, id: number) {
  return db
    .selectFrom('cloudInstances')
    .innerJoin('customers', 'customers.id', 'cloudInstances.customerId')
    .selectAll('cloudInstances')
    .select(['customers.name as customerName', 'customers.customerKey'])
    .where('cloudInstances.id', '=', id)
    .executeTakeFirst();
}

/** The customer an instance belongs to (the access rule of the routes that name an instance). */
export async function customerOfInstance(db: DB, id: number): Promise<number | null> {
  const row = await db.selectFrom('cloudInstances').select('customerId').where('id', '=', id).executeTakeFirst();
  return row?.customerId ?? null;
}

/** The customer's instances in `statuses`, oldest first (each is then moved by `moveInstance`'s compare-and-set). */
export function instancesOfCustomer(db: DB, customerId: number, statuses: readonly InstanceStatus[]) {
  return db
    .selectFrom('cloudInstances')
    .selectAll()
    .where('customerId', '=', customerId)
    .where('status', 'in', [...statuses])
    .orderBy('id')
    .execute();
}

/** A page of the customer's instances, oldest first (deleted ones too: they say what became of it). */
export async function listInstances(db: DB, customerId: number, page: { offset: number; length: number }) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('cloudInstances')
      .selectAll()
      .where('customerId', '=', customerId)
      .orderBy('id')
      .limit(page.length)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('cloudInstances')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('customerId', '=', customerId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** A live trial instance of the customer, if any (the sign-up makes one). */
export function trialInstanceOf(db: DB, customerId: number) {
  return db
    .selectFrom('cloudInstances')
    .select('id')
    .where('customerId', '=', customerId)
    .where('tier', '=', 'trial')
    .where('status', '!=', 'deleted')
    .orderBy('id')
    .executeTakeFirst();
}

export interface StatusMove {
  from: InstanceStatus;
  to: InstanceStatus;
  /** set with the move (provisioned); left as it is when undefined */
  url?: string | null;
  /** the archive's moment and reason: set when archiving, cleared when restoring */
  archivedAt?: string | null;
  archivedFor?: InstanceArchiveReason | null;
}

/**
 * Moves the instance from `from` to `to` only if it is still in `from`: of two changes racing, one
 * moves it and the other finds nothing (undefined), so a step is never taken twice.
 */
export function moveInstance(db: DB, id: number, move: StatusMove): Promise<InstanceRow | undefined> {
  return db
    .updateTable('cloudInstances')
    .set({
      status: move.to,
      updatedAt: nowIso(),
      ...(move.url !== undefined ? { url: move.url } : {}),
      ...(move.archivedAt !== undefined ? { archivedAt: move.archivedAt } : {}),
      ...(move.archivedFor !== undefined ? { archivedFor: move.archivedFor } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', move.from)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Who is told of an instance's archive and data deletion: the customer's enabled business owners and
 * its account executive, enabled users, each in their language. Not a notification setting: these
 * mails are about the service the customer pays for.
 */
export function instanceMailRecipients(db: DB, customerId: number) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select(['users.id as userId', 'users.email', 'users.fullName', 'users.preferredLocale'])
    .where('memberships.customerId', '=', customerId)
    .where('memberships.role', 'in', ['businessOwner', 'accountExecutive'])
    .where('memberships.status', '=', 'enabled')
    .where('users.status', '=', 'enabled')
    .orderBy('users.id')
    .execute();
}

export function customerFacts(db: DB, customerId: number) {
  return db
    .selectFrom('customers')
    .select(['id', 'name', 'customerKey'])
    .where('id', '=', customerId)
    .executeTakeFirst();
}

/**
 * Records an orchestrator callback's event id; false when it was recorded already (a replay), in
 * which case nothing else of the callback may happen.
 */
export async function recordCallback(db: DB, eventId: string, instanceId: number): Promise<boolean> {
  const row = await db
    .insertInto('instanceCallbacks')
    .values({ eventId, instanceId, receivedAt: nowIso() })
    .onConflict((oc) => oc.column('eventId').doNothing())
    .returning('eventId')
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets the callbacks received before `before` (their signatures are too old to be replayed). */
export async function purgeCallbacks(db: DB, before: string): Promise<number> {
  const result = await db.deleteFrom('instanceCallbacks').where('receivedAt', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
