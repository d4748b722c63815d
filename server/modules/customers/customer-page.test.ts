import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole, UserType } from '../../../common/roles';
import { addMembership, createCustomer, createUser, login, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
let app: FastifyInstance;
let acme: { id: number };
let globex: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  acme = await createCustomer(app.ctx.db, { name: 'Acme' });
  globex = await createCustomer(app.ctx.db, { name: 'Globex' });
});
afterAll(async () => t?.close());

const getCustomer = (cookie: string | null, id: number) =>
  request(app, cookie, { method: 'GET', url: `/api/customers/${id}` });
const sync = (cookie: string | null, id: number | string) =>
  request(app, cookie, { method: 'POST', url: `/api/customers/${id}/sync` });

async function member(type: UserType, customerId: number, role: MemberRole) {
  const user = await createUser(app.ctx.db, { type, fullName: `${role} of ${customerId}` });
  await addMembership(app.ctx.db, user.id, customerId, role);
  return { cookie: await login(app, user.email) };
}

describe('POST /api/customers/:id/sync', () => {
  it('answers 401 to anonymous callers', async () => {
    expect((await sync(null, acme.id)).statusCode).toBe(401);
  });

  it('answers 400 to an id that cannot name a customer', async () => {
    const { cookie } = await signedIn(app, 'admin');
    for (const id of ['abc', '0', '2147483648']) {
      const response = await sync(cookie, id);
      expect(response.statusCode, id).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_error', details: [{ path: 'id' }] });
    }
  });

  it('answers 404 to a caller with no role in the customer, like an unknown customer', async () => {
    const outsiders = [
      await member('accountExecutive', acme.id, 'accountExecutive'),
      await member('client', acme.id, 'businessOwner'),
    ];
    for (const outsider of outsiders) {
      const existing = await sync(outsider.cookie, globex.id);
      expect(existing.statusCode).toBe(404);
      expect(existing.body).toBe((await sync(outsider.cookie, 2_000_000_000)).body);
    }
  });

  it("answers 403 to the customer's own contacts: syncing is for staff", async () => {
    for (const role of ['businessOwner', 'technicalContact', 'endUser'] as const) {
      const { cookie } = await member('client', globex.id, role);
      const response = await sync(cookie, globex.id);
      expect(response.statusCode, role).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
  });

  it('tells staff plainly that no CRM is configured (409), never a success that did nothing', async () => {
    const callers = [
      await member('accountExecutive', globex.id, 'accountExecutive'),
      await signedIn(app, 'admin'),
      await signedIn(app, 'productManager'),
      await signedIn(app, 'supportEngineer'),
    ];
    for (const caller of callers) {
      const response = await sync(caller.cookie, globex.id);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        error: {
          code: 'crm_not_configured',
          message: 'The connection to SalesForce is not configured on this portal.',
        },
      });
    }
  });
});

describe('GET /api/customers/:id: the billing contact of the footer', () => {
  it('tells the billing contact to the project manager only', async () => {
    const customer = await createCustomer(app.ctx.db);
    await app.ctx.db
      .updateTable('customers')
      .set({ billingEmail: 'billing@customer.example' })
      .where('id', '=', customer.id)
      .execute();
    const owner = await member('client', customer.id, 'businessOwner');
    expect((await getCustomer(owner.cookie, customer.id)).json().billingEmail).toBe('billing@customer.example');
    const others = [
      await member('client', customer.id, 'technicalContact'),
      await member('client', customer.id, 'endUser'),
      await member('accountExecutive', customer.id, 'accountExecutive'),
      await signedIn(app, 'admin'),
      await signedIn(app, 'supportEngineer'),
    ];
    for (const other of others) {
      const answer = (await getCustomer(other.cookie, customer.id)).json();
      expect(answer.billingEmail, answer.yourRole).toBeNull();
    }
  });
});
