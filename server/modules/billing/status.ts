import { RUNNING_PAYMENT_STATUSES } from '../../../common/billing';
import type { PaymentStatus } from '../../../common/domain';
import type { ProviderSubscription } from '../../integrations/payments';

/**
 * The payment statuses as a state machine (docs/billing.md): the moves a customer's subscription may
 * make, in one table. A move that is not in it is refused (and logged) by whoever tries it: a late or
 * stray event cannot, say, send a paying customer back to "initiated" or a cancelled one into grace.
 * `none` stands for a self-service customer without a subscription yet.
 */
export type StatusOrNone = PaymentStatus | 'none';

export const PAYMENT_TRANSITIONS: Record<StatusOrNone, readonly PaymentStatus[]> = {
  // a checkout started, or a subscription found at the provider (paid at once, or still confirming)
  none: ['initiated', 'processing', 'trial', 'paid'],
  // paid (perhaps already set to end: its events may be read late), still confirming, or given up
  initiated: ['processing', 'trial', 'paid', 'toBeCanceled', 'canceled'],
  // the first payment confirmed, failed back to a new checkout, or given up
  processing: ['initiated', 'trial', 'paid', 'toBeCanceled', 'canceled'],
  trial: ['paid', 'toBeCanceled', 'grace', 'unpaid', 'canceled'],
  paid: ['grace', 'toBeCanceled', 'unpaid', 'canceled'],
  // the payment came back, or grace ended (pastDue), or the provider gave up (unpaid, canceled)
  grace: ['paid', 'toBeCanceled', 'pastDue', 'unpaid', 'canceled'],
  pastDue: ['paid', 'toBeCanceled', 'unpaid', 'canceled'],
  unpaid: ['paid', 'canceled'],
  // subscribing again
  canceled: ['initiated', 'processing', 'trial', 'paid', 'toBeCanceled'],
  // resumed, ended at the period's end, or its last payment failed
  toBeCanceled: ['paid', 'grace', 'unpaid', 'canceled'],
};

/** Whether a subscription in `from` may move to `to` (staying put is no move). */
export function mayMove(from: PaymentStatus | null, to: PaymentStatus): boolean {
  return PAYMENT_TRANSITIONS[from ?? 'none'].includes(to);
}

export const isRunning = (status: PaymentStatus | null): boolean =>
  status !== null && RUNNING_PAYMENT_STATUSES.includes(status);

/** The statuses in which the service is withheld for want of payment (its instances archived). */
export const SUSPENDED_STATUSES: readonly PaymentStatus[] = ['pastDue', 'unpaid', 'canceled'];

/**
 * The portal's status for what the provider says of the customer's subscription (the table of
 * docs/billing.md). The provider knows nothing of the portal's grace: a payment that fails while the
 * service runs starts it (`grace`), and once it is over the customer is `pastDue` while the provider
 * still retries. A portal trial (no card yet) is kept while a first payment is still being confirmed
 * or was never completed. Without a subscription at the provider the portal's status stands.
 */
export function statusFromProvider(
  subscription: Pick<ProviderSubscription, 'status' | 'cancelAtPeriodEnd'> | null,
  current: { status: PaymentStatus | null; graceUntil: string | null },
  now: Date,
): PaymentStatus | null {
  if (!subscription) return current.status;
  const ending = subscription.cancelAtPeriodEnd;
  switch (subscription.status) {
    case 'trialing':
      return ending ? 'toBeCanceled' : 'trial';
    case 'active':
      return ending ? 'toBeCanceled' : 'paid';
    case 'incomplete':
      return current.status === 'trial' ? 'trial' : 'processing';
    case 'incomplete_expired':
      return current.status === 'trial' ? 'trial' : 'initiated';
    case 'past_due':
      if (current.status === 'grace') {
        const over = current.graceUntil !== null && Date.parse(current.graceUntil) <= now.getTime();
        return over ? 'pastDue' : 'grace';
      }
      return isRunning(current.status) ? 'grace' : 'pastDue';
    case 'unpaid':
    case 'paused':
      return 'unpaid';
    case 'canceled':
      return 'canceled';
    default:
      return current.status;
  }
}
