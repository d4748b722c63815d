import { CHECKOUT_OPEN_STATUSES } from '../../../common/billing';
import type { TestCheckoutKind } from '../../../common/billing';
import type { PaymentStatus } from '../../../common/domain';
import { holds, type CustomerAccess } from '../../policy';

/** Who may do what with a customer's subscription (docs/billing.md), beyond the routes' capabilities. */

/** A checkout is for a self-service customer without a running or owing subscription. */
export const checkoutRefusal = (
  customer: Pick<CustomerAccess['customer'], 'selfService'>,
  status: PaymentStatus | null,
): 'notSelfService' | 'subscriptionRunning' | null => {
  if (!customer.selfService) return 'notSelfService';
  if (!CHECKOUT_OPEN_STATUSES.includes(status)) return 'subscriptionRunning';
  return null;
};

/**
 * The built-in test checkout's pages: the billing portal for whoever sees the subscription block (its
 * manage button); a checkout or a new card for those who pay.
 */
export const mayUseTestCheckout = (access: Pick<CustomerAccess, 'role'>, kind: TestCheckoutKind): boolean =>
  holds(access, kind === 'portal' ? 'viewSubscription' : 'pay');
