import type { DB } from '../../db';
import type { CrmCustomer } from '../../integrations/crm';

/** A customer with its members and licences, as the CRM receives them; undefined when unknown. */
export async function crmCustomer(db: DB, customerId: number): Promise<CrmCustomer | undefined> {
  const customer = await db
    .selectFrom('customers')
    .select(['id', 'name', 'customerKey', 'selfService', 'crmId'])
    .where('id', '=', customerId)
    .executeTakeFirst();
  if (!customer) return undefined;
  const members = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select([
      'memberships.id as membershipId',
      'users.email',
      'users.fullName',
      'memberships.role',
      'memberships.status',
    ])
    .where('memberships.customerId', '=', customerId)
    .orderBy('memberships.id')
    .execute();
  const licences = await db
    .selectFrom('licences')
    .innerJoin('products', 'products.key', 'licences.productKey')
    .select([
      'licences.id',
      'licences.productKey',
      'products.name as productName',
      'licences.accessLevel',
      'licences.startDate',
      'licences.endDate',
      'licences.hasEntityResolution',
    ])
    .where('licences.customerId', '=', customerId)
    .orderBy('licences.id')
    .execute();
  return {
    ...customer,
    selfService: customer.selfService === 1,
    members,
    licences: licences.map(({ hasEntityResolution, ...licence }) => ({
      ...licence,
      entityResolution: hasEntityResolution === 1,
    })),
  };
}

/** Keeps the customer's id in the CRM and when it was pushed there. */
export async function storeCrmSync(db: DB, customerId: number, crmId: string, syncedAt: string): Promise<void> {
  await db.updateTable('customers').set({ crmId, crmSyncedAt: syncedAt }).where('id', '=', customerId).execute();
}
