import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { addMembership, createCustomer, createUser, login, signedIn } from '../test/factories';
import { createTestApp, request, type TestApp } from '../test/harness';
import { access, customerAccessOf, idFrom, resolveCustomerAccess } from './access';

/**
 * The customer rule on routes of its own (the portal's customer routes come with later areas):
 * a capability only some roles hold, a loader that finds the customer through another entity, the
 * customer named in the query, and a body the rule must not wait for.
 */
let t: TestApp;
let app: FastifyInstance;
let acme: { id: number };
let globex: { id: number };

/** What a route sees of its caller: the customer and role the rule established. */
const echo = async (request: Parameters<typeof customerAccessOf>[0]) => {
  const { customer, role, membership } = customerAccessOf(request);
  return { customerId: customer.id, role, membershipId: membership?.id ?? null };
};

beforeAll(async () => {
  t = await createTestApp();
  app = await buildApp(t.config, { database: t.database, startBackgroundWork: false });
  app.get(
    '/api/probe/customers/:id/edit',
    { config: { access: access.customer('editCustomer', { from: 'params.id' }) } },
    echo,
  );
  app.get(
    '/api/probe/memberships/:id',
    {
      config: {
        access: access.customer('viewTeam', {
          // the documented shape of a loader: the entity the route names resolves to its customer
          load: async ({ db }, request) => {
            const row = await db
              .selectFrom('memberships')
              .select('customerId')
              .where('id', '=', idFrom(request, 'params.id'))
              .executeTakeFirst();
            return row?.customerId ?? null;
          },
        }),
      },
    },
    echo,
  );
  app.get(
    '/api/probe/downloads',
    { config: { access: access.customer('download', { from: 'query.customerId' }) } },
    echo,
  );
  app.post(
    '/api/probe/customers/:id/notes',
    { config: { access: access.customer('viewCustomer', { from: 'params.id' }) } },
    echo,
  );
  await app.ready();
  acme = await createCustomer(app.ctx.db, { name: 'Acme' });
  globex = await createCustomer(app.ctx.db, { name: 'Globex' });
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const get = (cookie: string | null, url: string) => request(app, cookie, { method: 'GET', url });

describe('access.customer', () => {
  it('answers 403 to a role in the customer without the capability, 404 to those with no role there', async () => {
    const owner = await signedIn(app, 'client', { id: acme.id, role: 'businessOwner' });
    const executive = await signedIn(app, 'accountExecutive', { id: acme.id, role: 'accountExecutive' });
    const admin = await signedIn(app, 'admin');
    const outsider = await signedIn(app, 'client', { id: globex.id, role: 'businessOwner' });

    expect((await get(owner.cookie, `/api/probe/customers/${acme.id}/edit`)).statusCode).toBe(403);
    expect((await get(executive.cookie, `/api/probe/customers/${acme.id}/edit`)).statusCode).toBe(403);
    const allowed = await get(admin.cookie, `/api/probe/customers/${acme.id}/edit`);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual({ customerId: acme.id, role: 'admin', membershipId: null });
    // no role in the customer: its existence is not revealed, even for a capability they lack anyway
    expect((await get(outsider.cookie, `/api/probe/customers/${acme.id}/edit`)).statusCode).toBe(404);
    expect((await get(null, `/api/probe/customers/${acme.id}/edit`)).statusCode).toBe(401);
  });

  it("finds the customer through a loader, and hands the route the caller's role and membership", async () => {
    const owner = await createUser(app.ctx.db, { type: 'client' });
    const ownMembership = await addMembership(app.ctx.db, owner.id, acme.id, 'businessOwner');
    const cookie = await login(app, owner.email);
    const colleague = await createUser(app.ctx.db, { type: 'client' });
    const colleagueMembership = await addMembership(app.ctx.db, colleague.id, acme.id, 'endUser');
    const stranger = await createUser(app.ctx.db, { type: 'client' });
    const strangerMembership = await addMembership(app.ctx.db, stranger.id, globex.id, 'endUser');

    const response = await get(cookie, `/api/probe/memberships/${colleagueMembership.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ customerId: acme.id, role: 'businessOwner', membershipId: ownMembership.id });

    // an entity of another customer and an entity that does not exist answer alike
    const other = await get(cookie, `/api/probe/memberships/${strangerMembership.id}`);
    const missing = await get(cookie, '/api/probe/memberships/2000000000');
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(missing.body);
    expect((await get(cookie, '/api/probe/memberships/abc')).statusCode).toBe(400);
  });

  it('reads the customer from the query when the route names it there', async () => {
    const contact = await signedIn(app, 'client', { id: acme.id, role: 'technicalContact' });
    const endUser = await signedIn(app, 'client', { id: acme.id, role: 'endUser' });
    expect((await get(contact.cookie, `/api/probe/downloads?customerId=${acme.id}`)).statusCode).toBe(200);
    expect((await get(endUser.cookie, `/api/probe/downloads?customerId=${acme.id}`)).statusCode).toBe(403);
    expect((await get(contact.cookie, `/api/probe/downloads?customerId=${globex.id}`)).statusCode).toBe(404);
    for (const query of ['', '?customerId=', '?customerId=x', `?customerId=${acme.id}&customerId=${acme.id}`]) {
      expect((await get(contact.cookie, `/api/probe/downloads${query}`)).statusCode, query).toBe(400);
    }
  });

  it('decides before the body is read: an outsider gets 404 whatever they send', async () => {
    const member = await signedIn(app, 'client', { id: acme.id, role: 'endUser' });
    const outsider = await signedIn(app, 'client', { id: globex.id, role: 'endUser' });
    const send = (cookie: string) =>
      request(app, cookie, {
        method: 'POST',
        url: `/api/probe/customers/${acme.id}/notes`,
        headers: { 'content-type': 'application/json' },
        payload: '{"not json',
      });
    expect((await send(outsider.cookie)).statusCode).toBe(404);
    expect((await send(member.cookie)).statusCode).toBe(400);
  });
});

describe('resolveCustomerAccess', () => {
  it('gives no role to a disabled account, whatever its type or membership', async () => {
    for (const type of ['admin', 'client'] as const) {
      const user = await createUser(app.ctx.db, { type });
      await addMembership(app.ctx.db, user.id, acme.id, 'businessOwner');
      expect(await resolveCustomerAccess(app.ctx.db, { id: user.id, type, status: 'enabled' }, acme.id)).not.toBeNull();
      expect(await resolveCustomerAccess(app.ctx.db, { id: user.id, type, status: 'disabled' }, acme.id)).toBeNull();
    }
  });

  it('loads the customer and the membership in one query', async () => {
    let queries = 0;
    const counting = app.ctx.db.withPlugin({
      transformQuery: (args) => {
        queries++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const user = await createUser(app.ctx.db, { type: 'client' });
    const membership = await addMembership(app.ctx.db, user.id, acme.id, 'technicalContact');
    const found = await resolveCustomerAccess(counting, { id: user.id, type: 'client', status: 'enabled' }, acme.id);
    expect(found).toMatchObject({
      customer: { id: acme.id },
      role: 'technicalContact',
      membership: { id: membership.id },
    });
    expect(queries).toBe(1);
  });

  it('gives no role in a customer that does not exist, even to an admin', async () => {
    const admin = await createUser(app.ctx.db, { type: 'admin' });
    expect(
      await resolveCustomerAccess(app.ctx.db, { id: admin.id, type: 'admin', status: 'enabled' }, 2_000_000_000),
    ).toBeNull();
  });
});

describe('access rules accept only the capabilities of their kind', () => {
  it('refuses a customer capability as a global one, and the reverse (checked by the compiler)', () => {
    // @ts-expect-error manageLicences depends on the customer: access.can() would let every account executive in
    expect(() => access.can('manageLicences')).not.toThrow();
    // @ts-expect-error manageUsers is decided by the user's type, not by a customer
    expect(() => access.customer('manageUsers', { from: 'params.id' })).not.toThrow();
  });
});
