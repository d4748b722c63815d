import { queryOptions } from '@tanstack/react-query';
import { PaymentMethodUpdateSession, RedirectUrl, Subscription, VerifiedSession } from '../../common/api/billing';
import { api } from './client';
import { customerKeys } from './customers';

/**
 * Self-service payment (spec sections 4 and 7, docs/billing.md). The subscription sits under its
 * customer's key: reloading the customer (after the return from a checkout) reloads it too.
 */
export const billingKeys = {
  subscription: (customerId: number) => [...customerKeys.one(customerId), 'subscription'] as const,
};

export const subscriptionQuery = (customerId: number) =>
  queryOptions({
    queryKey: billingKeys.subscription(customerId),
    queryFn: ({ signal }) => api.get(`/customers/${customerId}/subscription`, { schema: Subscription, signal }),
  });

/** Spec 7 `POST /signup/payment`: the checkout's URL. */
export const startCheckout = (customerId: number) =>
  api.post('/signup/payment', { customerId }, { schema: RedirectUrl });

/** Spec 7 `GET /stripe/verify-session/{sessionId}`. */
export const verifySession = (sessionId: string) =>
  api.get(`/stripe/verify-session/${encodeURIComponent(sessionId)}`, { schema: VerifiedSession });

/** Spec 7 `POST /stripe/update-payment-method-session`: the answer carries `stripe.url`. */
export const openPaymentMethodUpdate = (customerId: number) =>
  api.post('/stripe/update-payment-method-session', { customerId }, { schema: PaymentMethodUpdateSession });

/** The provider's billing portal (the subscription block's manage button). */
export const openBillingPortal = (customerId: number) =>
  api.post('/stripe/billing-portal-session', { customerId }, { schema: RedirectUrl });

/**
 * How the browser leaves for the provider's pages; tests replace these with spies. The billing portal
 * opens in a new tab, opened at the click (a tab opened once the answer is in would be blocked as a
 * pop-up) and sent to the portal when its address arrives.
 */
export const browser = {
  assign: (url: string) => window.location.assign(url),
  openTab: (): Window | null => window.open('', '_blank'),
};
