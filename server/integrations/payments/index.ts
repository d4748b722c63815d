import type { Config } from '../../config';
import type { DB } from '../../db';
import type { JobRunner } from '../../jobs/types';
import { type BuiltinPaymentProvider, createBuiltinProvider } from './builtin';
import { createStripeProvider } from './stripe';
import type { PaymentProviderClient } from './types';

export * from './types';
export { type BuiltinPaymentProvider, TEST_CHECKOUT_EVENT_JOB, type StripeShapedEvent } from './builtin';

/** Stripe when its three keys are set (config.ts checks the set), else the built-in test checkout. */
export function createPayments(deps: {
  config: Config;
  db: DB;
  jobs: Pick<JobRunner, 'enqueue'>;
}): PaymentProviderClient | BuiltinPaymentProvider {
  const { config } = deps;
  if (config.payments.stripe) return createStripeProvider(config.payments);
  return createBuiltinProvider({
    config: config.payments,
    baseUrl: config.baseUrl,
    serverSecrets: config.sealSecrets,
    db: deps.db,
    jobs: deps.jobs,
  });
}

export function isBuiltinPayments(payments: PaymentProviderClient): payments is BuiltinPaymentProvider {
  return payments.name === 'builtin';
}
