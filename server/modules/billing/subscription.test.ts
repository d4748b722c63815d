import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, type PaymentStatus } from '../../../common/domain';
import { ROLES, type Role } from '../../../common/roles';
import { makeSelfService } from '../../test/billing';
import { addMembership, createCustomer, createUser, login } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import * as repo from './repo';

/**
 * What the server decides of the customer page in each payment status, for each role (spec 4
 * "Payment status"; the client's sections.ts lays the page out from it): the status, the abilities to
 * pay, see the subscription and see an unpaid account, and the subscription block's answer.
 */

let t: TestApp;
const cookies = new Map<Role, string>();
let customerId: number;

/** How each role is held in the customer: staff by type, the others by membership. */
const SETUP: Record<Role, { type: 'admin' | 'productManager' | 'supportEngineer' | 'accountExecutive' | 'client' }> = {
  admin: { type: 'admin' },
  productManager: { type: 'productManager' },
  supportEngineer: { type: 'supportEngineer' },
  accountExecutive: { type: 'accountExecutive' },
  businessOwner: { type: 'client' },
  technicalContact: { type: 'client' },
  endUser: { type: 'client' },
};

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  customerId = (await createCustomer(db, { selfService: true, name: 'Self Service Co' })).id;
  for (const role of ROLES) {
    const user = await createUser(db, { type: SETUP[role].type, fullName: `As ${role}` });
    if (SETUP[role].type === 'accountExecutive' || SETUP[role].type === 'client') {
      await addMembership(db, user.id, customerId, role as 'accountExecutive');
    }
    cookies.set(role, await login(t.app, user.email));
  }
});
afterAll(async () => t?.close());

const PAYERS: Role[] = ['admin', 'supportEngineer', 'businessOwner'];
const SUBSCRIPTION_VIEWERS: Role[] = ['admin', 'accountExecutive', 'supportEngineer', 'businessOwner'];

async function setStatus(status: PaymentStatus | null) {
  const { db } = t.app.ctx;
  if (status === null) await db.deleteFrom('subscriptions').where('customerId', '=', customerId).execute();
  else await makeSelfService(db, customerId, { status, providerCustomerId: 'cus_test_page' });
  if (status === 'grace') {
    await repo.updateSubscription(db, customerId, { graceUntil: new Date(Date.now() + 5 * 86_400_000).toISOString() });
  }
}

describe('the customer page of a self-service customer, in every payment status, as every role', () => {
  for (const status of [null, ...PAYMENT_STATUSES]) {
    it(`${String(status)}`, async () => {
      await setStatus(status);
      for (const role of ROLES) {
        const cookie = cookies.get(role)!;
        const customer = await request(t.app, cookie, { method: 'GET', url: `/api/customers/${customerId}` });
        expect(customer.statusCode, role).toBe(200);
        expect(customer.json(), role).toMatchObject({
          selfService: true,
          paymentStatus: status,
          yourRole: role,
          can: {
            pay: PAYERS.includes(role),
            viewSubscription: SUBSCRIPTION_VIEWERS.includes(role),
            viewUnpaidAccount: role === 'admin' || role === 'supportEngineer',
          },
        });

        const subscription = await request(t.app, cookie, {
          method: 'GET',
          url: `/api/customers/${customerId}/subscription`,
        });
        if (!SUBSCRIPTION_VIEWERS.includes(role)) {
          expect(subscription.statusCode, role).toBe(403);
          continue;
        }
        expect(subscription.statusCode, role).toBe(200);
        expect(subscription.json(), role).toEqual({
          customerId,
          selfService: true,
          status,
          provider: status === null ? null : 'builtin',
          currentPeriodEnd: null,
          graceUntil: status === 'grace' ? expect.any(String) : null,
          graceDaysLeft: status === 'grace' ? 5 : null,
          manageable: status !== null,
          suspended: false,
        });
      }
    });
  }
});

describe('a sales-led customer', () => {
  it('has no payment status and nothing to manage', async () => {
    const sales = await createCustomer(t.app.ctx.db);
    const response = await request(t.app, cookies.get('admin')!, {
      method: 'GET',
      url: `/api/customers/${sales.id}/subscription`,
    });
    expect(response.json()).toMatchObject({ selfService: false, status: null, manageable: false });
  });
});
