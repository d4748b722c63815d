import type { PaymentStatus } from './domain';

/**
 * Self-service billing (docs/billing.md): the values the database, the API and the pages share beyond
 * the payment statuses of common/domain.ts.
 */

/** A subscription's status at Stripe (and in the built-in test checkout, which speaks the same). */
export const PROVIDER_SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'incomplete',
  'incomplete_expired',
  'past_due',
  'unpaid',
  'canceled',
  'paused',
] as const;
export type ProviderSubscriptionStatus = (typeof PROVIDER_SUBSCRIPTION_STATUSES)[number];

/**
 * What a session of the built-in test checkout is for: paying a new subscription (Stripe Checkout),
 * managing one (the billing portal), or giving a new card (the billing portal's payment-method flow).
 */
export const TEST_CHECKOUT_KINDS = ['checkout', 'portal', 'paymentMethodUpdate'] as const;
export type TestCheckoutKind = (typeof TEST_CHECKOUT_KINDS)[number];

/** A session of the built-in test checkout, as Stripe says of a checkout session. */
export const TEST_CHECKOUT_SESSION_STATUSES = ['open', 'complete', 'expired'] as const;
export type TestCheckoutSessionStatus = (typeof TEST_CHECKOUT_SESSION_STATUSES)[number];

/**
 * What a tester does on a page of the built-in test checkout. On a checkout: pay, pay by a slow
 * method (the payment stays processing until the tester says it went through or failed), have the
 * card declined (the session stays open, as Stripe Checkout's does), or go back without paying. On
 * the billing portal: the next renewal paid or failed, cancelling at the period's end or resuming,
 * cancelling now; once a renewal failed, every retry failing (unpaid) or the portal's grace ending
 * now (past due). On the payment-method page: a new card, which pays what is due.
 */
export const TEST_CHECKOUT_ACTIONS = {
  checkout: ['pay', 'payProcessing', 'decline', 'abandon', 'paymentClears', 'paymentFails'],
  portal: [
    'renewalPaid',
    'renewalFailed',
    'retriesFail',
    'graceOver',
    'cancelAtPeriodEnd',
    'resume',
    'cancelNow',
    'back',
  ],
  paymentMethodUpdate: ['saveCard', 'back'],
} as const satisfies Record<TestCheckoutKind, readonly string[]>;
export type TestCheckoutAction = (typeof TEST_CHECKOUT_ACTIONS)[TestCheckoutKind][number];

/** The price the built-in test checkout shows and charges (nothing is charged: it is a test). */
export const TEST_CHECKOUT_PRICE = { amountCents: 4900, currency: 'eur', interval: 'month' } as const;

/** Spec 4: the statuses in which the subscription runs and the customer's contacts use the portal. */
export const RUNNING_PAYMENT_STATUSES: readonly PaymentStatus[] = ['trial', 'paid', 'grace', 'toBeCanceled'];

/** Spec 4: the statuses of the payment-issue section. */
export const PAYMENT_ISSUE_STATUSES: readonly PaymentStatus[] = ['grace', 'pastDue', 'unpaid', 'canceled'];

/**
 * The statuses in which a payer may start a checkout: no subscription yet, one started and not paid,
 * the trial, or one that ended. A subscription that is running or owes money is managed, not bought
 * again (a second one would charge twice).
 */
export const CHECKOUT_OPEN_STATUSES: readonly (PaymentStatus | null)[] = [null, 'initiated', 'trial', 'canceled'];
