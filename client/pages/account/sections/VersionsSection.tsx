import type { Customer } from '../../../../common/api/customers';

/**
 * Versions of the selected product with their downloads (spec 2 "Versions list"). Shown where
 * `accountSections` says; it comes with the versions API and shows nothing until then.
 */
export function VersionsSection(_props: { customer: Customer }) {
  return null;
}
