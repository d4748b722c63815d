import { queryOptions } from '@tanstack/react-query';
import { TestCheckoutOutcome, TestCheckoutSession } from '../../common/api/test-checkout';
import type { TestCheckoutAction } from '../../common/billing';
import { api } from './client';

/** The built-in test checkout's pages (docs/billing.md). */
export const testCheckoutKeys = { session: (sessionId: string) => ['test-checkout', sessionId] as const };

export const testCheckoutQuery = (sessionId: string) =>
  queryOptions({
    queryKey: testCheckoutKeys.session(sessionId),
    queryFn: ({ signal }) =>
      api.get(`/test-checkout/${encodeURIComponent(sessionId)}`, { schema: TestCheckoutSession, signal }),
  });

export const actOnTestCheckout = (sessionId: string, action: TestCheckoutAction) =>
  api.post(`/test-checkout/${encodeURIComponent(sessionId)}`, { action }, { schema: TestCheckoutOutcome });
