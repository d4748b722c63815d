import type { CrmConfig } from '../../config-support-crm';
import { createSalesforceClient } from './salesforce';
import type { CrmClient } from './types';

export { CrmError, type CrmClient, type CrmCustomer } from './types';

/** The CRM of this portal: Salesforce when configured (docs/crm.md), else none. */
export function createCrm(config: CrmConfig | null): CrmClient | null {
  return config ? createSalesforceClient(config) : null;
}
