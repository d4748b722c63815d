import type { Customer } from '../../../../common/api/customers';

/**
 * The subscription block (spec 2: status phrase, Self-Service or Sales, the provider's portal). Shown
 * where `accountSections` says; it comes with the billing API and shows nothing until then.
 */
export function SubscriptionSection(_props: { customer: Customer }) {
  return null;
}
