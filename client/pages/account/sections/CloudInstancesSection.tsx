import type { Customer } from '../../../../common/api/customers';

/**
 * Cloud instances (spec 2: hidden when none). Loaded for every role (spec 4); it comes with the
 * instances API and, like a customer without instances, shows nothing until then.
 */
export function CloudInstancesSection(_props: { customer: Customer }) {
  return null;
}
