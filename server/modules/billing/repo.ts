import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CheckoutStatus, PaymentProvider } from '../../../common/domain';
import { type DB, nowIso } from '../../db';
import type { PaymentsTable, SubscriptionsTable } from '../../db/schema';
import { isPostgres } from '../../db/search';

/** SQL of self-service billing: subscriptions (the customer's payment status) and payments. */

type New<T> = Omit<Insertable<T>, 'id' | 'createdAt' | 'updatedAt'> & { createdAt?: string };
export type SubscriptionRow = Selectable<SubscriptionsTable>;

export async function insertSubscription(db: DB, subscription: New<SubscriptionsTable>) {
  const now = subscription.createdAt ?? nowIso();
  return db
    .insertInto('subscriptions')
    .values({ ...subscription, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function insertPayment(db: DB, payment: New<PaymentsTable>) {
  const now = payment.createdAt ?? nowIso();
  return db
    .insertInto('payments')
    .values({ ...payment, createdAt: now, updatedAt: now })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/**
 * The customer's subscription. With `lock`, held until the transaction ends on PostgreSQL, so two
 * updates of one subscription (a webhook and the return from the checkout) run one after the other;
 * SQLite runs one transaction at a time anyway.
 */
export function findSubscription(db: DB, customerId: number, options: { lock?: boolean } = {}) {
  return db
    .selectFrom('subscriptions')
    .selectAll()
    .where('customerId', '=', customerId)
    .$if(Boolean(options.lock) && isPostgres(db), (q) => q.forUpdate())
    .executeTakeFirst();
}

export async function updateSubscription(
  db: DB,
  customerId: number,
  changes: Omit<Updateable<SubscriptionsTable>, 'id' | 'customerId' | 'createdAt' | 'updatedAt'>,
): Promise<void> {
  await db
    .updateTable('subscriptions')
    .set({ ...changes, updatedAt: nowIso() })
    .where('customerId', '=', customerId)
    .execute();
}

/**
 * Records the provider customer of a portal customer, unless one of this provider is already recorded
 * (two checkouts started at once keep the first); answers the one recorded.
 */
export async function setProviderCustomer(
  db: DB,
  customerId: number,
  provider: PaymentProvider,
  providerCustomerId: string,
): Promise<string | null> {
  await db
    .updateTable('subscriptions')
    .set({ provider, providerCustomerId, providerSubscriptionId: null, updatedAt: nowIso() })
    .where('customerId', '=', customerId)
    .where((eb) => eb.or([eb('providerCustomerId', 'is', null), eb('provider', '!=', provider)]))
    .execute();
  const row = await findSubscription(db, customerId);
  return row?.provider === provider ? row.providerCustomerId : null;
}

/** The portal customer of a provider customer (the events name the latter). */
export async function customerOfProviderCustomer(db: DB, providerCustomerId: string): Promise<number | null> {
  const row = await db
    .selectFrom('subscriptions')
    .select('customerId')
    .where('providerCustomerId', '=', providerCustomerId)
    .executeTakeFirst();
  return row?.customerId ?? null;
}

/** The customer a checkout session was opened for (the access rule of its verification). */
export async function customerOfCheckout(db: DB, providerSessionId: string): Promise<number | null> {
  const row = await db
    .selectFrom('payments')
    .select('customerId')
    .where('providerSessionId', '=', providerSessionId)
    .executeTakeFirst();
  return row?.customerId ?? null;
}

/** A checkout's outcome; answers whether it changed (an outcome is recorded once). */
export async function setPaymentStatus(db: DB, providerSessionId: string, status: CheckoutStatus): Promise<boolean> {
  const result = await db
    .updateTable('payments')
    .set({ status, updatedAt: nowIso() })
    .where('providerSessionId', '=', providerSessionId)
    .where('status', '!=', status)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks a provider event handled; false when it was already (a duplicate delivery). */
export async function recordEvent(db: DB, event: { id: string; type: string }): Promise<boolean> {
  const row = await db
    .insertInto('billingEvents')
    .values({ id: event.id, type: event.type, createdAt: nowIso() })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** An event whose handling failed is forgotten, so the provider's next delivery of it is handled. */
export async function forgetEvent(db: DB, id: string): Promise<void> {
  await db.deleteFrom('billingEvents').where('id', '=', id).execute();
}

/** Who hears of a payment problem: the customer's project managers and its account executive. */
export function billingRecipients(db: DB, customerId: number) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .innerJoin('customers', 'customers.id', 'memberships.customerId')
    .select(['users.email', 'users.fullName', 'users.preferredLocale', 'customers.name as customerName'])
    .where('memberships.customerId', '=', customerId)
    .where('memberships.role', 'in', ['businessOwner', 'accountExecutive'])
    .where('memberships.status', '=', 'enabled')
    .where('users.status', '=', 'enabled')
    .orderBy('users.id')
    .execute();
}
