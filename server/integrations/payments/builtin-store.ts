import type { Insertable, Selectable, Updateable } from 'kysely';
import { type DB, nowIso } from '../../db';
import type { TestCheckoutSessionsTable, TestCheckoutSubscriptionsTable } from '../../db/schema';
import { isPostgres } from '../../db/search';

/** SQL of the built-in test checkout (./builtin.ts): its sessions, subscriptions and signing secret. */

export type TestSession = Selectable<TestCheckoutSessionsTable>;
export type TestSubscription = Selectable<TestCheckoutSubscriptionsTable>;

export async function insertSession(
  db: DB,
  session: Omit<Insertable<TestCheckoutSessionsTable>, 'createdAt' | 'updatedAt'>,
): Promise<TestSession> {
  const now = nowIso();
  return db
    .insertInto('testCheckoutSessions')
    .values({ ...session, createdAt: now, updatedAt: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A session; locked until the transaction ends on PostgreSQL (SQLite runs one transaction at a time). */
export function findSession(db: DB, id: string, options: { lock?: boolean } = {}) {
  return db
    .selectFrom('testCheckoutSessions')
    .selectAll()
    .where('id', '=', id)
    .$if(Boolean(options.lock) && isPostgres(db), (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function updateSession(
  db: DB,
  id: string,
  changes: Pick<Updateable<TestCheckoutSessionsTable>, 'status' | 'subscriptionId'>,
) {
  await db
    .updateTable('testCheckoutSessions')
    .set({ ...changes, updatedAt: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** The portal customer a session belongs to (the access rule of its page). */
export async function customerOfSession(db: DB, id: string): Promise<number | null> {
  const row = await db.selectFrom('testCheckoutSessions').select('customerId').where('id', '=', id).executeTakeFirst();
  return row?.customerId ?? null;
}

export async function insertSubscription(
  db: DB,
  subscription: Omit<Insertable<TestCheckoutSubscriptionsTable>, 'createdAt' | 'updatedAt'>,
): Promise<TestSubscription> {
  const now = nowIso();
  return db
    .insertInto('testCheckoutSubscriptions')
    .values({ ...subscription, createdAt: now, updatedAt: now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function subscriptionsOf(db: DB, providerCustomerId: string, options: { lock?: boolean } = {}) {
  return db
    .selectFrom('testCheckoutSubscriptions')
    .selectAll()
    .where('providerCustomerId', '=', providerCustomerId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .$if(Boolean(options.lock) && isPostgres(db), (q) => q.forUpdate())
    .execute();
}

export async function updateSubscription(
  db: DB,
  id: string,
  changes: Pick<
    Updateable<TestCheckoutSubscriptionsTable>,
    'status' | 'cancelAtPeriodEnd' | 'currentPeriodStart' | 'currentPeriodEnd'
  >,
): Promise<TestSubscription> {
  return db
    .updateTable('testCheckoutSubscriptions')
    .set({ ...changes, updatedAt: nowIso() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The sealed signing secret: one row, the first written (two nodes asking at once write one). */
export async function storedSecret(db: DB): Promise<string | null> {
  const row = await db.selectFrom('testCheckoutSecrets').select('secretSealed').where('id', '=', 1).executeTakeFirst();
  return row?.secretSealed ?? null;
}

export async function insertSecret(db: DB, secretSealed: string): Promise<void> {
  await db
    .insertInto('testCheckoutSecrets')
    .values({ id: 1, secretSealed, createdAt: nowIso() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
