import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMembership,
  createCustomer,
  createInvitation,
  createLicence,
  createProduct,
  createUser,
  signedIn,
} from '../../test/factories';
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
  // more of each list than one page holds, so the answer is a first page, not everything
  for (let i = 0; i < 12; i++) {
    const { key } = await createProduct(app.ctx.db, { name: `Product ${String(i).padStart(2, '0')}` });
    await createLicence(app.ctx.db, globex.id, key);
    await createInvitation(app.ctx.db, globex.id, { fullName: `Invited ${i}` });
    const user = await createUser(app.ctx.db, { type: 'client', fullName: `Member ${i}` });
    await addMembership(app.ctx.db, user.id, globex.id, 'endUser');
  }
});
afterAll(async () => t?.close());

const get = (cookie: string | null, url: string) => request(app, cookie, { method: 'GET', url });
const page = (cookie: string | null, id: number | string) => get(cookie, `/api/customers/${id}/page`);

describe('GET /api/customers/:id/page', () => {
  it('answers 401 to anonymous callers', async () => {
    expect((await page(null, globex.id)).statusCode).toBe(401);
  });

  it('answers 400 to an id that cannot name a customer', async () => {
    const { cookie } = await signedIn(app, 'admin');
    for (const id of ['abc', '0', '2147483648']) expect((await page(cookie, id)).statusCode, id).toBe(400);
  });

  it('answers 404 to a caller with no role in the customer, like an unknown customer', async () => {
    const outsider = await signedIn(app, 'client', { id: acme.id, role: 'businessOwner' });
    const existing = await page(outsider.cookie, globex.id);
    expect(existing.statusCode).toBe(404);
    expect(existing.body).toBe((await page(outsider.cookie, 2_000_000_000)).body);
  });

  it("gives each list's first page exactly as its own route answers it, for the roles that see the team", async () => {
    const callers = [
      await signedIn(app, 'client', { id: globex.id, role: 'businessOwner' }),
      await signedIn(app, 'admin'),
    ];
    for (const { cookie } of callers) {
      const response = await page(cookie, globex.id);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.customer).toEqual((await get(cookie, `/api/customers/${globex.id}`)).json());
      expect(body.licences).toEqual(
        (await get(cookie, `/api/customers/${globex.id}/licenses?pageOffset=0&pageLength=10`)).json(),
      );
      expect(body.members).toEqual(
        (await get(cookie, `/api/customers/${globex.id}/members?pageOffset=0&pageLength=10&sort=name`)).json(),
      );
      expect(body.invitations).toEqual(
        (await get(cookie, `/api/invitations?customerId=${globex.id}&pageOffset=0&pageLength=10&sort=newest`)).json(),
      );
      expect(body.recentActions).toEqual(
        (await get(cookie, `/api/customers/${globex.id}/logs?pageOffset=0&pageLength=10`)).json(),
      );
      expect(body.subscription).toEqual((await get(cookie, `/api/customers/${globex.id}/subscription`)).json());
      // a first page of ten, never the whole team
      expect(body.licences.data).toHaveLength(10);
      expect(body.members.data).toHaveLength(10);
      expect(body.members.total).toBeGreaterThan(12);
      expect(body.invitations.data).toHaveLength(10);
      expect(body.invitations.total).toBe(12);
    }
  });

  it('leaves out the lists a role does not see: the team for a technical contact, licences too for an end user', async () => {
    const tech = (
      await page((await signedIn(app, 'client', { id: globex.id, role: 'technicalContact' })).cookie, globex.id)
    ).json();
    expect(tech.customer.yourRole).toBe('technicalContact');
    expect(tech.licences.data).toHaveLength(10);
    // the roles that download get their secrets, as from the list's route
    expect(tech.licences.data[0].downloadSecret).toEqual(expect.any(String));
    expect([tech.members, tech.invitations, tech.recentActions, tech.subscription]).toEqual([null, null, null, null]);

    const endUser = (
      await page((await signedIn(app, 'client', { id: globex.id, role: 'endUser' })).cookie, globex.id)
    ).json();
    expect(endUser.customer.yourRole).toBe('endUser');
    expect([endUser.licences, endUser.members, endUser.invitations, endUser.recentActions]).toEqual([
      null,
      null,
      null,
      null,
    ]);

    const manager = (await page((await signedIn(app, 'productManager')).cookie, globex.id)).json();
    expect(manager.licences.data).toHaveLength(10);
    expect(manager.members).toBeNull();
    expect(manager.subscription).toBeNull();
  });
});
