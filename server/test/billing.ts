import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import type { PaymentProvider, PaymentStatus } from '../../common/domain';
import type { AppContext } from '../context';
import type { DB } from '../db';
import * as testCheckout from '../integrations/payments/builtin-store';
import * as repo from '../modules/billing/repo';
import { createCustomer } from './factories';
import { BASE_URL } from './harness';
import { withText } from './outbox';

/** Test data and helpers of self-service billing (docs/billing.md). */

/**
 * Makes the customer self-service with a subscription in `status` (trial by default), known to the
 * provider as `providerCustomerId` when given. Idempotent: the customer's subscription is replaced.
 */
export async function makeSelfService(
  db: DB,
  customerId: number,
  options: { status?: PaymentStatus; provider?: PaymentProvider; providerCustomerId?: string | null } = {},
) {
  await db.updateTable('customers').set({ selfService: 1 }).where('id', '=', customerId).execute();
  await db.deleteFrom('subscriptions').where('customerId', '=', customerId).execute();
  await repo.insertSubscription(db, {
    customerId,
    provider: options.provider ?? 'builtin',
    providerCustomerId: options.providerCustomerId ?? null,
    providerSubscriptionId: null,
    status: options.status ?? 'trial',
    currentPeriodEnd: null,
    graceUntil: null,
  });
}

/** A fresh self-service customer, without a subscription unless a status is given. */
export async function selfServiceCustomer(
  db: DB,
  options: { status?: PaymentStatus; provider?: PaymentProvider; providerCustomerId?: string | null } = {},
) {
  const customer = await createCustomer(db, { selfService: true });
  if (options.status) await makeSelfService(db, customer.id, options);
  return customer;
}

/** A session of the built-in test checkout of the customer, with its `payments` row for a checkout. */
export async function testCheckoutSession(
  db: DB,
  customerId: number,
  kind: 'checkout' | 'portal' | 'paymentMethodUpdate' = 'checkout',
): Promise<string> {
  const id = `${kind === 'checkout' ? 'cs' : 'bps'}_test_${customerId}_${Math.random().toString(36).slice(2)}`;
  await testCheckout.insertSession(db, {
    id,
    kind,
    customerId,
    providerCustomerId: `cus_test_of_${customerId}`,
    status: 'open',
    subscriptionId: null,
    amountCents: 4900,
    currency: 'eur',
    returnUrl: `${BASE_URL}/en/accounts/${customerId}?payment=success&session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${BASE_URL}/en/accounts/${customerId}`,
  });
  if (kind === 'checkout') {
    await repo.insertPayment(db, {
      customerId,
      providerSessionId: id,
      amountCents: 4900,
      currency: 'eur',
      status: 'open',
    });
  }
  return id;
}

let eventCount = 0;

/** A Stripe event about an object, as Stripe sends it (a fresh id unless given). */
export function stripeEvent(type: string, object: Record<string, unknown>, id?: string) {
  return {
    id: id ?? `evt_test_${Date.now().toString(36)}_${eventCount++}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    api_version: Stripe.API_VERSION,
    data: { object },
  };
}

/** The body and headers of an event signed as Stripe signs it (`timestamp` in seconds, default now). */
export function signedEvent(event: object, secret: string, timestamp?: number) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
  return { payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature } };
}

/** Posts a signed event to the webhook route, from another origin as Stripe does. */
export function postEvent(app: FastifyInstance, event: object, secret: string, timestamp?: number) {
  const { payload, headers } = signedEvent(event, secret, timestamp);
  return app.inject({
    method: 'POST',
    url: '/api/stripe/webhooks',
    payload,
    headers: { ...headers, origin: 'https://stripe.example' },
  });
}

/** The customer's subscription row. */
export const subscriptionOf = (db: DB, customerId: number) =>
  db.selectFrom('subscriptions').selectAll().where('customerId', '=', customerId).executeTakeFirstOrThrow();

/** The customer's audit entries of an action, oldest first. */
export const entriesOf = (db: DB, customerId: number, action: string) =>
  db
    .selectFrom('auditLog')
    .selectAll()
    .where('customerId', '=', customerId)
    .where('action', '=', action)
    .orderBy('id')
    .execute();

/** The outbox's mails of a template, oldest first. */
export const mailsOf = (ctx: AppContext, template: string) =>
  ctx.db
    .selectFrom('mailOutbox')
    .selectAll()
    .where('template', '=', template)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map(withText(ctx)));
