import type { Insertable } from 'kysely';
import { type DB, nowIso } from '../../db';
import type { PaymentsTable, SubscriptionsTable } from '../../db/schema';

/** SQL of self-service billing: subscriptions (the customer's payment status) and payments. */

type New<T> = Omit<Insertable<T>, 'id' | 'createdAt' | 'updatedAt'> & { createdAt?: string };

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
