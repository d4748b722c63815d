import type Stripe from 'stripe';
import type { ProviderSubscriptionStatus } from '../../../common/billing';
import type { PaymentsConfig } from '../../config';
import {
  currentOf,
  type PaymentProviderClient,
  PaymentProviderError,
  type ProviderCheckoutSession,
  type ProviderSubscription,
} from './types';

/**
 * Stripe (docs/billing.md): Stripe Checkout in subscription mode, the billing portal, and the
 * subscriptions of the Stripe customer the portal creates for each of its customers. The client is
 * loaded at the first call (a portal on the test checkout never loads it) and pointed at
 * STRIPE_API_URL when set (tests: server/test/stripe-peer.ts).
 */

/** The API version the client's types describe; Stripe answers every call in it. */
type StripeClient = InstanceType<typeof Stripe>;

let stripeModule: Promise<typeof Stripe> | null = null;
/** The stripe package, loaded once. */
export const loadStripe = () => (stripeModule ??= import('stripe').then((module) => module.default));

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);

function sessionOf(session: Stripe.Checkout.Session): ProviderCheckoutSession {
  const id = (ref: string | { id: string } | null) => (typeof ref === 'string' ? ref : (ref?.id ?? null));
  const reference = Number(session.client_reference_id);
  return {
    id: session.id,
    url: session.url ?? null,
    status: (session.status ?? 'open') as ProviderCheckoutSession['status'],
    paymentStatus: session.payment_status as ProviderCheckoutSession['paymentStatus'],
    customer: id(session.customer),
    subscription: id(session.subscription),
    customerId: Number.isSafeInteger(reference) && reference > 0 ? reference : null,
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
  };
}

/**
 * A subscription as the portal reads it. Stripe's current API keeps the billing period on each item:
 * with one price there is one item; with several, the period runs from the earliest start to the
 * latest end.
 */
function subscriptionOf(subscription: Stripe.Subscription): ProviderSubscription {
  const items = subscription.items?.data ?? [];
  const starts = items.map((item) => item.current_period_start).filter(Boolean);
  const ends = items.map((item) => item.current_period_end).filter(Boolean);
  return {
    id: subscription.id,
    customer: typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id,
    status: subscription.status as ProviderSubscriptionStatus,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    currentPeriodStart: iso(starts.length ? Math.min(...starts) : null),
    currentPeriodEnd: iso(ends.length ? Math.max(...ends) : null),
    created: subscription.created,
  };
}

/** A Stripe error the caller can act on: 404 is "no such object", the rest is the provider failing. */
function isNotFound(error: unknown): boolean {
  return (error as { statusCode?: number } | null)?.statusCode === 404;
}

async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new PaymentProviderError(`Stripe could not ${what}: ${message}`, error);
  }
}

export function createStripeProvider(config: PaymentsConfig): PaymentProviderClient {
  const stripe = config.stripe;
  if (!stripe) throw new Error('Stripe is not configured');
  let client: Promise<StripeClient> | null = null;
  const connect = () =>
    (client ??= loadStripe().then(
      (StripeClass) =>
        new StripeClass(stripe.secretKey, {
          maxNetworkRetries: 2,
          timeout: 20_000,
          telemetry: false,
          ...(config.stripeApi ?? {}),
        }),
    ));

  return {
    name: 'stripe',

    createCustomer: (input) =>
      call('create the customer', async () => {
        const created = await (
          await connect()
        ).customers.create(
          {
            name: input.name,
            ...(input.email ? { email: input.email } : {}),
            metadata: { customerId: String(input.customerId) },
          },
          // a retried creation (the network, a double click) makes one Stripe customer
          { idempotencyKey: `portal-customer-${input.customerId}` },
        );
        return { id: created.id };
      }),

    createCheckoutSession: (input) =>
      call('open a checkout', async () =>
        sessionOf(
          await (
            await connect()
          ).checkout.sessions.create({
            mode: 'subscription',
            customer: input.providerCustomerId,
            line_items: [{ price: stripe.priceId, quantity: 1 }],
            client_reference_id: String(input.customerId),
            metadata: { customerId: String(input.customerId) },
            subscription_data: { metadata: { customerId: String(input.customerId) } },
            locale: input.locale,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
          }),
        ),
      ),

    retrieveCheckoutSession: (id) =>
      call('read the checkout', async () => {
        try {
          return sessionOf(await (await connect()).checkout.sessions.retrieve(id));
        } catch (error) {
          // an id Stripe does not know is an answer, not a failure
          if (isNotFound(error)) return null;
          throw error;
        }
      }),

    currentSubscription: (providerCustomerId) =>
      call('read the subscription', async () => {
        const list = await (
          await connect()
        ).subscriptions.list({ customer: providerCustomerId, status: 'all', limit: 10 });
        const current = currentOf(list.data);
        return current ? subscriptionOf(current) : null;
      }),

    createPortalSession: (input) =>
      call('open the billing portal', async () => {
        const session = await (
          await connect()
        ).billingPortal.sessions.create({
          customer: input.providerCustomerId,
          return_url: input.returnUrl,
          locale: input.locale,
        });
        return { url: session.url };
      }),

    createPaymentMethodUpdateSession: (input) =>
      call('open the payment method update', async () => {
        const session = await (
          await connect()
        ).billingPortal.sessions.create({
          customer: input.providerCustomerId,
          return_url: input.returnUrl,
          locale: input.locale,
          flow_data: {
            type: 'payment_method_update',
            after_completion: { type: 'redirect', redirect: { return_url: input.returnUrl } },
          },
        });
        return { url: session.url };
      }),

    webhookSecret: async () => stripe.webhookSecret,
  };
}
