import crypto from 'node:crypto';
import {
  TEST_CHECKOUT_ACTIONS,
  TEST_CHECKOUT_PRICE,
  type TestCheckoutAction,
  type TestCheckoutKind,
} from '../../../common/billing';
import type { Locale } from '../../../common/roles';
import type { PaymentsConfig } from '../../config';
import type { DB } from '../../db';
import type { JobRunner } from '../../jobs/types';
import { newWebhookSecret, sealWebhookSecret, unsealWebhookSecret } from '../../modules/webhooks/secrets';
import * as store from './builtin-store';
import {
  currentOf,
  type PaymentProviderClient,
  type ProviderCheckoutSession,
  type ProviderSubscription,
} from './types';

/**
 * The built-in test checkout (docs/billing.md, docs/decisions/069): a small emulation of the Stripe
 * calls the portal makes, its state in the portal's database, and pages of the portal
 * (/{locale}/test-checkout/{session}) where a tester pays, has the card declined, abandons, or plays
 * the subscription's later life (a renewal paid or failed, a cancellation, a new card). Each outcome
 * produces the events Stripe would send, in Stripe's shapes, queued as jobs and handed, signed, to the
 * same webhook code as Stripe's (the signature check included): the portal follows a test subscription
 * exactly as it follows a real one.
 */

declare module '../../jobs/types' {
  interface QueuedJobs {
    /** one event of the test checkout, delivered to the webhook code (modules/billing/webhooks.ts) */
    'billing.testCheckoutEvent': { event: StripeShapedEvent };
  }
}
export const TEST_CHECKOUT_EVENT_JOB = 'billing.testCheckoutEvent';

/** An event as Stripe sends it (the fields the portal and a reader of the logs use). */
export interface StripeShapedEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  api_version: string;
  data: { object: Record<string, unknown> };
}

/** What a tester's page shows. */
interface TestCheckoutView {
  id: string;
  kind: TestCheckoutKind;
  status: store.TestSession['status'];
  customerId: number;
  amountCents: number;
  currency: string;
  subscription: { status: ProviderSubscription['status']; cancelAtPeriodEnd: boolean; currentPeriodEnd: string } | null;
}

export interface BuiltinPaymentProvider extends PaymentProviderClient {
  readonly name: 'builtin';
  /** A session of the test checkout as its page shows it; null when there is none. */
  view(sessionId: string): Promise<TestCheckoutView | null>;
  /**
   * What a tester did on a session's page: its effect and its events, queued in one transaction.
   * Answers where the page goes next (null: it stays, showing what changed) and whether the card was
   * declined.
   */
  act(sessionId: string, action: TestCheckoutAction): Promise<{ url: string | null; declined: boolean }>;
}

const API_VERSION = '2026-10-28.endive';
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const randomId = (prefix: string) => `${prefix}_test_${crypto.randomBytes(12).toString('base64url')}`;

/** A month later, the same day (the last day of a shorter month). */
function monthAfter(iso: string): string {
  const date = new Date(iso);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + 1);
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return date.toISOString();
}

function subscriptionOf(row: store.TestSubscription): ProviderSubscription {
  return {
    id: row.id,
    customer: row.providerCustomerId,
    status: row.status,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd === 1,
    currentPeriodStart: row.currentPeriodStart,
    currentPeriodEnd: row.currentPeriodEnd,
    created: seconds(row.createdAt),
  };
}

/** The subscription in Stripe's shape, the period on its one item. */
function stripeSubscription(row: store.TestSubscription) {
  return {
    id: row.id,
    object: 'subscription',
    customer: row.providerCustomerId,
    status: row.status,
    cancel_at_period_end: row.cancelAtPeriodEnd === 1,
    created: seconds(row.createdAt),
    metadata: { customerId: String(row.customerId) },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${row.id.slice(4)}`,
          object: 'subscription_item',
          current_period_start: seconds(row.currentPeriodStart),
          current_period_end: seconds(row.currentPeriodEnd),
          price: { id: 'price_test_checkout', unit_amount: TEST_CHECKOUT_PRICE.amountCents },
        },
      ],
    },
  };
}

function stripeInvoice(row: store.TestSubscription, paid: boolean) {
  return {
    id: randomId('in'),
    object: 'invoice',
    customer: row.providerCustomerId,
    status: paid ? 'paid' : 'open',
    amount_due: TEST_CHECKOUT_PRICE.amountCents,
    amount_paid: paid ? TEST_CHECKOUT_PRICE.amountCents : 0,
    currency: TEST_CHECKOUT_PRICE.currency,
    parent: { type: 'subscription_details', subscription_details: { subscription: row.id } },
  };
}

function checkoutSessionOf(row: store.TestSession): ProviderCheckoutSession {
  return {
    id: row.id,
    url: null,
    status: row.status,
    paymentStatus: row.status === 'complete' ? 'paid' : 'unpaid',
    customer: row.providerCustomerId,
    subscription: row.subscriptionId,
    customerId: row.customerId,
    amountTotal: row.amountCents,
    currency: row.currency,
  };
}

function stripeCheckoutSession(row: store.TestSession) {
  return {
    id: row.id,
    object: 'checkout.session',
    mode: 'subscription',
    status: row.status,
    payment_status: row.status === 'complete' ? 'paid' : 'unpaid',
    customer: row.providerCustomerId,
    subscription: row.subscriptionId,
    client_reference_id: String(row.customerId),
    amount_total: row.amountCents,
    currency: row.currency,
    url: null,
  };
}

export function createBuiltinProvider(deps: {
  config: PaymentsConfig;
  baseUrl: string;
  /** the server secrets: the current one seals, any opens (docs/security.md) */
  serverSecrets: readonly string[];
  db: DB;
  jobs: Pick<JobRunner, 'enqueue'>;
}): BuiltinPaymentProvider {
  const { db, jobs, baseUrl } = deps;
  const pageUrl = (locale: Locale, id: string) => `${baseUrl}/${locale}/test-checkout/${encodeURIComponent(id)}`;
  const newSession = async (
    kind: TestCheckoutKind,
    input: { providerCustomerId: string; customerId: number; locale: Locale; returnUrl: string; cancelUrl?: string },
  ) =>
    store.insertSession(db, {
      id: randomId(kind === 'checkout' ? 'cs' : 'bps'),
      kind,
      customerId: input.customerId,
      providerCustomerId: input.providerCustomerId,
      status: 'open',
      subscriptionId: null,
      amountCents: TEST_CHECKOUT_PRICE.amountCents,
      currency: TEST_CHECKOUT_PRICE.currency,
      returnUrl: input.returnUrl,
      cancelUrl: input.cancelUrl ?? null,
    });

  /** The portal's own secret: generated at the first need, kept sealed, read once per process. */
  let secret: Promise<string> | null = null;
  const ownSecret = async () => {
    let sealed = await store.storedSecret(db);
    if (!sealed) {
      await store.insertSecret(db, sealWebhookSecret(deps.serverSecrets[0], newWebhookSecret()));
      sealed = await store.storedSecret(db);
    }
    const value = sealed && unsealWebhookSecret(deps.serverSecrets, sealed);
    if (!value) throw new Error('The test checkout secret cannot be read: was SESSION_SECRET changed?');
    return value;
  };

  /** Queues Stripe's events for what just changed, in the change's transaction. */
  const emit = async (trx: DB, events: [type: string, object: Record<string, unknown>][]) => {
    const created = Math.floor(Date.now() / 1000);
    for (const [type, object] of events) {
      const event: StripeShapedEvent = {
        id: randomId('evt'),
        object: 'event',
        type,
        created,
        livemode: false,
        api_version: API_VERSION,
        data: { object },
      };
      await jobs.enqueue(trx, TEST_CHECKOUT_EVENT_JOB, { event });
    }
  };

  /** The effect of a portal action on the customer's current subscription, and its events. */
  const onSubscription = async (
    trx: DB,
    session: store.TestSession,
    change: (current: store.TestSubscription) => {
      changes: Parameters<typeof store.updateSubscription>[2];
      invoice?: 'paid' | 'failed';
      deleted?: boolean;
    } | null,
  ) => {
    const rows = await store.subscriptionsOf(trx, session.providerCustomerId, { lock: true });
    const current = currentOf(rows.map((row) => ({ ...row, created: seconds(row.createdAt) })));
    if (!current) return;
    const effect = change(current);
    if (!effect) return;
    const updated = await store.updateSubscription(trx, current.id, effect.changes);
    const events: [string, Record<string, unknown>][] = [];
    if (effect.invoice === 'paid') events.push(['invoice.paid', stripeInvoice(updated, true)]);
    if (effect.invoice === 'failed') events.push(['invoice.payment_failed', stripeInvoice(updated, false)]);
    events.push([
      effect.deleted ? 'customer.subscription.deleted' : 'customer.subscription.updated',
      stripeSubscription(updated),
    ]);
    await emit(trx, events);
  };

  /** The next period, paid: the subscription runs again from its current end. */
  const renewed = (current: store.TestSubscription) => ({
    status: 'active' as const,
    currentPeriodStart: current.currentPeriodEnd,
    currentPeriodEnd: monthAfter(current.currentPeriodEnd),
  });

  return {
    name: 'builtin',

    createCustomer: async () => ({ id: randomId('cus') }),

    createCheckoutSession: async (input) => {
      const row = await newSession('checkout', { ...input, returnUrl: input.successUrl, cancelUrl: input.cancelUrl });
      return { ...checkoutSessionOf(row), url: pageUrl(input.locale, row.id) };
    },

    retrieveCheckoutSession: async (id) => {
      const row = await store.findSession(db, id);
      return row?.kind === 'checkout' ? checkoutSessionOf(row) : null;
    },

    currentSubscription: async (providerCustomerId) => {
      const rows = (await store.subscriptionsOf(db, providerCustomerId)).map(subscriptionOf);
      return currentOf(rows);
    },

    createPortalSession: async (input) => ({
      url: pageUrl(input.locale, (await newSession('portal', input)).id),
    }),

    createPaymentMethodUpdateSession: async (input) => ({
      url: pageUrl(input.locale, (await newSession('paymentMethodUpdate', input)).id),
    }),

    webhookSecret: () => {
      const configured = deps.config.testCheckoutSecret;
      if (configured) return Promise.resolve(configured);
      secret ??= ownSecret().catch((error: unknown) => {
        secret = null;
        throw error;
      });
      return secret;
    },

    view: async (sessionId) => {
      const row = await store.findSession(db, sessionId);
      if (!row) return null;
      const subscriptions = (await store.subscriptionsOf(db, row.providerCustomerId)).map((s) => ({
        row: s,
        ...subscriptionOf(s),
      }));
      // a checkout shows the subscription it made (a slow payment's, still processing), a portal the current one
      const current =
        row.kind === 'checkout'
          ? (subscriptions.find((s) => s.id === row.subscriptionId) ?? null)
          : currentOf(subscriptions);
      return {
        id: row.id,
        kind: row.kind,
        status: row.status,
        customerId: row.customerId,
        amountCents: row.amountCents,
        currency: row.currency,
        subscription: current
          ? {
              status: current.status,
              cancelAtPeriodEnd: current.cancelAtPeriodEnd,
              currentPeriodEnd: current.row.currentPeriodEnd,
            }
          : null,
      };
    },

    act: (sessionId, action) =>
      db.transaction().execute(async (trx) => {
        const session = await store.findSession(trx, sessionId, { lock: true });
        if (!session) throw new Error(`no test checkout session ${sessionId}`);
        const allowed: readonly string[] = TEST_CHECKOUT_ACTIONS[session.kind];
        if (!allowed.includes(action)) throw new RangeError(`${action} is not an action of a ${session.kind} page`);
        const stay = { url: null, declined: false };
        const leave = (url: string) => ({ url, declined: false });
        const successUrl = session.returnUrl.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(session.id));

        switch (action) {
          case 'pay':
          case 'payProcessing': {
            // paid once: a second click (or a second tab) leads to the same place
            if (session.status === 'complete') return leave(successUrl);
            if (session.status !== 'open') return leave(session.cancelUrl ?? successUrl);
            const now = new Date().toISOString();
            // a slow method (a bank debit) leaves the first invoice open: Stripe's `incomplete`
            const processing = action === 'payProcessing';
            const subscription = await store.insertSubscription(trx, {
              id: randomId('sub'),
              customerId: session.customerId,
              providerCustomerId: session.providerCustomerId,
              status: processing ? 'incomplete' : 'active',
              cancelAtPeriodEnd: 0,
              currentPeriodStart: now,
              currentPeriodEnd: monthAfter(now),
            });
            await store.updateSession(trx, session.id, { status: 'complete', subscriptionId: subscription.id });
            const completed = { ...session, status: 'complete' as const, subscriptionId: subscription.id };
            await emit(trx, [
              [
                'checkout.session.completed',
                { ...stripeCheckoutSession(completed), ...(processing ? { payment_status: 'unpaid' } : {}) },
              ],
              ['customer.subscription.created', stripeSubscription(subscription)],
              ...(processing
                ? []
                : [['invoice.paid', stripeInvoice(subscription, true)] as [string, Record<string, unknown>]]),
            ]);
            return leave(successUrl);
          }
          case 'paymentClears':
          case 'paymentFails': {
            // the slow payment's outcome: the subscription runs, or its first invoice expires unpaid
            const rows = session.subscriptionId
              ? await store.subscriptionsOf(trx, session.providerCustomerId, { lock: true })
              : [];
            const own = rows.find((row) => row.id === session.subscriptionId);
            if (own?.status !== 'incomplete') return stay;
            const clears = action === 'paymentClears';
            const updated = await store.updateSubscription(
              trx,
              own.id,
              clears ? { status: 'active' } : { status: 'incomplete_expired' },
            );
            await emit(trx, [
              ...(clears ? [['invoice.paid', stripeInvoice(updated, true)] as [string, Record<string, unknown>]] : []),
              ['customer.subscription.updated', stripeSubscription(updated)],
            ]);
            return stay;
          }
          case 'decline':
            // Stripe Checkout keeps the page open after a declined card, and nothing is created
            return { url: null, declined: true };
          case 'abandon':
            if (session.status === 'open') await store.updateSession(trx, session.id, { status: 'expired' });
            return leave(session.cancelUrl ?? successUrl);
          case 'renewalPaid':
            await onSubscription(trx, session, (current) =>
              current.status === 'canceled' ? null : { changes: renewed(current), invoice: 'paid' },
            );
            return stay;
          case 'renewalFailed':
            await onSubscription(trx, session, (current) =>
              current.status === 'canceled' ? null : { changes: { status: 'past_due' }, invoice: 'failed' },
            );
            return stay;
          case 'retriesFail':
            // Stripe's retries of a past-due invoice all failed: the subscription is left unpaid
            await onSubscription(trx, session, (current) =>
              current.status === 'past_due' ? { changes: { status: 'unpaid' } } : null,
            );
            return stay;
          case 'graceOver':
            // the portal's own clock, not the provider's: modules/billing/test-checkout.ts ends the grace
            return stay;
          case 'cancelAtPeriodEnd':
          case 'resume':
            await onSubscription(trx, session, (current) =>
              current.status === 'canceled'
                ? null
                : { changes: { cancelAtPeriodEnd: action === 'cancelAtPeriodEnd' ? 1 : 0 } },
            );
            return stay;
          case 'cancelNow':
            await onSubscription(trx, session, (current) =>
              current.status === 'canceled' ? null : { changes: { status: 'canceled' }, deleted: true },
            );
            return stay;
          case 'saveCard':
            // a new card pays what is due, as Stripe retries an open invoice with it
            await onSubscription(trx, session, (current) =>
              current.status === 'past_due' || current.status === 'unpaid'
                ? { changes: renewed(current), invoice: 'paid' }
                : null,
            );
            return leave(session.returnUrl);
          case 'back':
            return leave(session.returnUrl);
        }
      }),
  };
}
