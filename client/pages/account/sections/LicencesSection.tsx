import type { Customer } from '../../../../common/api/customers';

/**
 * Licences of the customer (spec 2 "Licences table"). The page renders it for the roles of
 * `accountSections`; its table comes with the licences API, and until then it shows nothing rather
 * than an empty table that would tell the customer they have no licence.
 */
export function LicencesSection(_props: { customer: Customer }) {
  return null;
}
