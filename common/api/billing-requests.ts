import { z } from 'zod/mini';
import { TEST_CHECKOUT_ACTIONS, type TestCheckoutAction } from '../billing';
import { MAX_ID } from './common';

/**
 * The requests of self-service payment (spec section 7, docs/billing.md), as the server checks them:
 * apart from the answers' schemas (billing.ts), which the pages carry, since only the server reads
 * these.
 */

const CustomerId = z.int().check(z.positive(), z.maximum(MAX_ID));

/** `POST /api/signup/payment`, `POST /api/stripe/update-payment-method-session`, the billing portal. */
export const CustomerIdBody = z.strictObject({ customerId: CustomerId });
export type CustomerIdBody = z.infer<typeof CustomerIdBody>;

/** A checkout session's id as the provider makes it (Stripe: `cs_…`), in a path. */
const SessionId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,255}$/, 'billing.errors.sessionId'));
export const SessionParams = z.object({ sessionId: SessionId });

/** `POST /api/stripe/webhooks`: received (a duplicate too). */
export const WebhookReceived = z.object({ received: z.literal(true) });

/** Every action of the test checkout's pages, each once (which page offers which: TEST_CHECKOUT_ACTIONS). */
const ALL_TEST_CHECKOUT_ACTIONS = [
  ...new Set(Object.values(TEST_CHECKOUT_ACTIONS).flat()),
] as readonly TestCheckoutAction[];

/** `POST /api/test-checkout/{sessionId}`: what the tester did. */
export const TestCheckoutActionBody = z.strictObject({ action: z.enum(ALL_TEST_CHECKOUT_ACTIONS) });
export type TestCheckoutActionBody = z.infer<typeof TestCheckoutActionBody>;
