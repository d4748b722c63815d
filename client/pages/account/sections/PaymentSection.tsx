import type { Customer } from '../../../../common/api/customers';

/**
 * The payment or payment-issue screen of a self-service customer (spec 4; which one is
 * `paymentScreen(customer)`). Rendered only for the roles that may pay; it comes with the checkout
 * and shows nothing until then.
 */
export function PaymentSection(_props: { customer: Customer }) {
  return null;
}
