import type { CrmConfig } from '../../config-support-crm';
import { type CrmClient, type CrmCustomer, CrmError, type CrmLicence, type CrmMember } from './types';

/**
 * The Salesforce side of the CRM sync, with jsforce (docs/decisions/073): an OAuth token (client
 * credentials, or the username-password flow when a user is configured), then one upsert by external
 * id per record through the REST API (`PATCH /sobjects/{type}/{field}/{value}`: 201 when created, 204
 * or 200 when updated). The objects and fields are listed in docs/crm.md.
 */

const SALESFORCE_OBJECTS = {
  account: { type: 'Account', externalId: 'Portal_Customer_Id__c' },
  contact: { type: 'Contact', externalId: 'Portal_Membership_Id__c' },
  licence: { type: 'Portal_Licence__c', externalId: 'Portal_Licence_Id__c' },
} as const;

/** Salesforce's Name fields hold 80 characters. */
const NAME_LENGTH = 80;

function accountRecord(customer: CrmCustomer): Record<string, unknown> {
  return {
    [SALESFORCE_OBJECTS.account.externalId]: String(customer.id),
    Name: customer.name.slice(0, 255),
    Portal_Customer_Key__c: customer.customerKey,
    Portal_Self_Service__c: customer.selfService,
  };
}

/** A contact's names: Salesforce requires LastName, so a one-word name is the last name. */
function contactRecord(member: CrmMember, accountId: string): Record<string, unknown> {
  const name = member.fullName.trim();
  const space = name.indexOf(' ');
  return {
    [SALESFORCE_OBJECTS.contact.externalId]: String(member.membershipId),
    AccountId: accountId,
    FirstName: space > 0 ? name.slice(0, space) : null,
    LastName: (space > 0 ? name.slice(space + 1) : name) || member.email,
    Email: member.email,
    Portal_Role__c: member.role,
    Portal_Status__c: member.status,
  };
}

function licenceRecord(licence: CrmLicence, accountId: string): Record<string, unknown> {
  return {
    [SALESFORCE_OBJECTS.licence.externalId]: String(licence.id),
    Name: `${licence.productName} #${licence.id}`.slice(0, NAME_LENGTH),
    Account__c: accountId,
    Product_Key__c: licence.productKey,
    Product_Name__c: licence.productName,
    Access_Level__c: licence.accessLevel,
    Start_Date__c: licence.startDate,
    End_Date__c: licence.endDate,
    Entity_Resolution__c: licence.entityResolution,
  };
}

/** Salesforce's error (REST `[{ errorCode, message }]`, OAuth `{ error, error_description }`) as one line. */
function crmErrorOf(error: unknown): CrmError {
  if (error instanceof CrmError) return error;
  const e = error as { errorCode?: string; name?: string; message?: string; code?: string };
  const code = e.errorCode ?? (e.name && e.name !== 'Error' ? e.name : (e.code ?? null));
  const message = (e.message ?? String(error)).trim();
  return new CrmError(code && !message.startsWith(code) ? `${code}: ${message}` : message);
}

type Connection = import('jsforce').Connection;

export function createSalesforceClient(config: CrmConfig, timeoutMs = 20_000): CrmClient {
  async function connect(): Promise<Connection> {
    // loaded on the first sync only: a portal without a CRM never loads the library
    const { Connection } = await import('jsforce');
    const conn = new Connection({
      loginUrl: config.loginUrl,
      version: config.apiVersion,
      oauth2: { loginUrl: config.loginUrl, clientId: config.clientId, clientSecret: config.clientSecret },
    });
    const login = config.user
      ? conn.login(config.user.username, config.user.password)
      : conn.authorize({ grant_type: 'client_credentials' });
    await withTimeout(login, timeoutMs);
    return conn;
  }

  async function upsert(
    conn: Connection,
    object: (typeof SALESFORCE_OBJECTS)[keyof typeof SALESFORCE_OBJECTS],
    record: Record<string, unknown>,
  ): Promise<string | null> {
    // one record at a time: the single-record upsert by external id (201/204), not the composite one
    const single = conn.sobject(object.type).upsert(record as import('jsforce').Record, object.externalId);
    const result: { success: boolean; errors: unknown[]; id?: string } = await withTimeout(single, timeoutMs);
    if (!result.success) throw new CrmError(JSON.stringify(result.errors));
    return typeof result.id === 'string' ? result.id : null;
  }

  /** The id of an account found by the portal's id (an update by external id answers none). */
  async function accountIdOf(conn: Connection, customerId: number): Promise<string> {
    const { type, externalId } = SALESFORCE_OBJECTS.account;
    const url = `/sobjects/${type}/${externalId}/${encodeURIComponent(String(customerId))}?fields=Id`;
    const record = await withTimeout(conn.request<{ Id: string }>(url), timeoutMs);
    return record.Id;
  }

  return {
    async pushCustomer(customer) {
      try {
        const conn = await connect();
        const upserted = await upsert(conn, SALESFORCE_OBJECTS.account, accountRecord(customer));
        const accountId = upserted ?? customer.crmId ?? (await accountIdOf(conn, customer.id));
        for (const member of customer.members) {
          await upsert(conn, SALESFORCE_OBJECTS.contact, contactRecord(member, accountId));
        }
        for (const licence of customer.licences) {
          await upsert(conn, SALESFORCE_OBJECTS.licence, licenceRecord(licence, accountId));
        }
        return { accountId };
      } catch (error) {
        throw crmErrorOf(error);
      }
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CrmError(`Salesforce did not answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
