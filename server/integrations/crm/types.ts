/**
 * What the portal pushes to the CRM (docs/crm.md): one customer with its members and licences, as
 * the portal holds them. Each record is upserted by the portal's id in an external id field, so
 * pushing the same customer twice writes the same values and creates nothing.
 */
export interface CrmCustomer {
  id: number;
  name: string;
  customerKey: string;
  selfService: boolean;
  /** the CRM's id of the account, once known */
  crmId: string | null;
  members: CrmMember[];
  licences: CrmLicence[];
}

export interface CrmMember {
  membershipId: number;
  email: string;
  fullName: string;
  role: string;
  status: string;
}

export interface CrmLicence {
  id: number;
  productKey: string;
  productName: string;
  accessLevel: string;
  startDate: string;
  endDate: string;
  entityResolution: boolean;
}

/** The CRM refused a request or could not be reached; the message says what it answered. */
export class CrmError extends Error {}

export interface CrmClient {
  /** Upserts the account, its contacts and its licences; the account's CRM id. */
  pushCustomer(customer: CrmCustomer): Promise<{ accountId: string }>;
}
