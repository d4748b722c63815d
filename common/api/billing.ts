import { z } from 'zod/mini';
import {
  ALL_TEST_CHECKOUT_ACTIONS,
  PROVIDER_SUBSCRIPTION_STATUSES,
  TEST_CHECKOUT_KINDS,
  TEST_CHECKOUT_SESSION_STATUSES,
} from '../billing';
import { CHECKOUT_STATUSES, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '../domain';
import { MAX_ID } from './common';

/** Self-service payment and subscription (spec sections 4 and 7, docs/billing.md). */

const CustomerId = z.int().check(z.positive(), z.maximum(MAX_ID));

/** `POST /api/signup/payment`, `POST /api/stripe/update-payment-method-session`, the billing portal. */
export const CustomerIdBody = z.strictObject({ customerId: CustomerId });
export type CustomerIdBody = z.infer<typeof CustomerIdBody>;

/** Where the browser goes next: the provider's checkout, portal or payment-method page. */
export const RedirectUrl = z.object({ url: z.string() });
export type RedirectUrl = z.infer<typeof RedirectUrl>;

/** `POST /api/stripe/update-payment-method-session` (spec 7: the response carries `stripe.url`). */
export const PaymentMethodUpdateSession = z.object({ stripe: RedirectUrl });
export type PaymentMethodUpdateSession = z.infer<typeof PaymentMethodUpdateSession>;

/** A checkout session's id as the provider makes it (Stripe: `cs_…`), in a path. */
const SessionId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,255}$/, 'billing.errors.sessionId'));
export const SessionParams = z.object({ sessionId: SessionId });

/** `GET /api/stripe/verify-session/{sessionId}`: where the checkout and the subscription stand. */
export const VerifiedSession = z.object({
  sessionId: z.string(),
  checkoutStatus: z.enum(CHECKOUT_STATUSES),
  paymentStatus: z.nullable(z.enum(PAYMENT_STATUSES)),
});
export type VerifiedSession = z.infer<typeof VerifiedSession>;

/**
 * `GET /api/customers/{id}/subscription`: what the subscription block and the payment screens show.
 * `manageable`: the customer has a subscription at the provider, whose portal and payment-method pages
 * can open; `graceDaysLeft`: whole days until grace ends (while in grace).
 */
export const Subscription = z.object({
  customerId: z.int(),
  selfService: z.boolean(),
  status: z.nullable(z.enum(PAYMENT_STATUSES)),
  provider: z.nullable(z.enum(PAYMENT_PROVIDERS)),
  currentPeriodEnd: z.nullable(z.string()),
  graceUntil: z.nullable(z.string()),
  graceDaysLeft: z.nullable(z.int()),
  manageable: z.boolean(),
  /** the service is withheld for want of payment */
  suspended: z.boolean(),
});
export type Subscription = z.infer<typeof Subscription>;

/** `POST /api/stripe/webhooks`: received (a duplicate too). */
export const WebhookReceived = z.object({ received: z.literal(true) });

// ---- the built-in test checkout's pages

export const TestCheckoutParams = z.object({ sessionId: SessionId });

export const TestCheckoutSession = z.object({
  id: z.string(),
  kind: z.enum(TEST_CHECKOUT_KINDS),
  status: z.enum(TEST_CHECKOUT_SESSION_STATUSES),
  customerId: z.int(),
  customerName: z.string(),
  amountCents: z.int(),
  currency: z.string(),
  subscription: z.nullable(
    z.object({
      status: z.enum(PROVIDER_SUBSCRIPTION_STATUSES),
      cancelAtPeriodEnd: z.boolean(),
      currentPeriodEnd: z.string(),
    }),
  ),
});
export type TestCheckoutSession = z.infer<typeof TestCheckoutSession>;

export const TestCheckoutActionBody = z.strictObject({ action: z.enum(ALL_TEST_CHECKOUT_ACTIONS) });
export type TestCheckoutActionBody = z.infer<typeof TestCheckoutActionBody>;

/** Where the page goes next (null: it stays and shows the session again); `declined`: the card was. */
export const TestCheckoutOutcome = z.object({ url: z.nullable(z.string()), declined: z.boolean() });
export type TestCheckoutOutcome = z.infer<typeof TestCheckoutOutcome>;
