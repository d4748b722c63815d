import type { ProviderSubscriptionStatus } from '../../../common/billing';
import type { PaymentProvider } from '../../../common/domain';
import type { Locale } from '../../../common/roles';

/**
 * The payment provider behind self-service subscriptions (docs/billing.md, docs/decisions/069): Stripe
 * when its keys are set, otherwise the built-in test checkout, which answers the same calls with the
 * same shapes from the portal's own database. The portal asks only these questions, so the code that
 * follows a subscription is the same with either.
 */
export interface PaymentProviderClient {
  readonly name: PaymentProvider;
  /** A customer at the provider for a portal customer; its id keys every later call and event. */
  createCustomer(input: { customerId: number; name: string; email: string | null }): Promise<{ id: string }>;
  /** A hosted page where the customer subscribes with a card (Stripe Checkout in subscription mode). */
  createCheckoutSession(input: CheckoutInput): Promise<ProviderCheckoutSession>;
  /** A checkout session as the provider knows it now; null when it has none by this id. */
  retrieveCheckoutSession(id: string): Promise<ProviderCheckoutSession | null>;
  /**
   * The subscription of a provider customer that says where the customer stands: the newest one that
   * has not ended, else the newest one; null when it has none.
   */
  currentSubscription(providerCustomerId: string): Promise<ProviderSubscription | null>;
  /** The provider's page where the customer manages the subscription (Stripe's billing portal). */
  createPortalSession(input: PortalInput): Promise<{ url: string }>;
  /** The provider's page where the customer gives a new card (the billing portal's payment-method flow). */
  createPaymentMethodUpdateSession(input: PortalInput): Promise<{ url: string }>;
  /** The secret the provider's events are signed with, checked on every event received. */
  webhookSecret(): Promise<string>;
}

interface CheckoutInput {
  providerCustomerId: string;
  customerId: number;
  locale: Locale;
  /** where the customer lands once paid; `{CHECKOUT_SESSION_ID}` is replaced by the session's id */
  successUrl: string;
  /** where the customer lands when they go back without paying */
  cancelUrl: string;
}

interface PortalInput {
  providerCustomerId: string;
  customerId: number;
  locale: Locale;
  returnUrl: string;
}

/** A checkout session, in Stripe's terms. */
export interface ProviderCheckoutSession {
  id: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  /** the provider customer */
  customer: string | null;
  /** the subscription it created, once complete */
  subscription: string | null;
  /** the portal customer it was made for (client_reference_id) */
  customerId: number | null;
  amountTotal: number | null;
  currency: string | null;
}

/** A subscription, in Stripe's terms; its period is read from its items (Stripe's current API). */
export interface ProviderSubscription {
  id: string;
  customer: string;
  status: ProviderSubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  /** seconds since the epoch */
  created: number;
}

/** The provider answered with an error or could not be reached: the caller says so (502). */
export class PaymentProviderError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

/** Subscriptions that ended and say nothing of the next one. */
const ENDED: readonly string[] = ['canceled', 'incomplete_expired'];

/** Of a provider customer's subscriptions, the one that says where the customer stands. */
export function currentOf<T extends { status: string; created: number }>(subscriptions: T[]): T | null {
  const newestFirst = [...subscriptions].sort((a, b) => b.created - a.created);
  return newestFirst.find((s) => !ENDED.includes(s.status)) ?? newestFirst[0] ?? null;
}
