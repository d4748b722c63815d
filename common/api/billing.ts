import { z } from 'zod/mini';
import { CHECKOUT_STATUSES, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '../domain';

/**
 * Self-service payment and subscription (spec sections 4 and 7, docs/billing.md): the answers the
 * pages read. What only the server reads (the requests' bodies and parameters) is in
 * billing-requests.ts, so that the pages do not carry it.
 */

/** Where the browser goes next: the provider's checkout, portal or payment-method page. */
export const RedirectUrl = z.object({ url: z.string() });
export type RedirectUrl = z.infer<typeof RedirectUrl>;

/** `POST /api/stripe/update-payment-method-session` (spec 7: the response carries `stripe.url`). */
export const PaymentMethodUpdateSession = z.object({ stripe: RedirectUrl });
export type PaymentMethodUpdateSession = z.infer<typeof PaymentMethodUpdateSession>;

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
  /** the end of the current period: the next renewal, the end of a cancelled one, or the trial's end */
  currentPeriodEnd: z.nullable(z.string()),
  graceUntil: z.nullable(z.string()),
  graceDaysLeft: z.nullable(z.int()),
  manageable: z.boolean(),
  /** the service is withheld for want of payment */
  suspended: z.boolean(),
});
export type Subscription = z.infer<typeof Subscription>;
