import { z } from 'zod/mini';
import { PROVIDER_SUBSCRIPTION_STATUSES, TEST_CHECKOUT_KINDS, TEST_CHECKOUT_SESSION_STATUSES } from '../billing';

/**
 * The pages of the built-in test checkout (docs/billing.md), apart from the billing schemas the
 * customer page carries: only the test checkout's page loads them.
 */

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

/** Where the page goes next (null: it stays and shows the session again); `declined`: the card was. */
export const TestCheckoutOutcome = z.object({ url: z.nullable(z.string()), declined: z.boolean() });
export type TestCheckoutOutcome = z.infer<typeof TestCheckoutOutcome>;
