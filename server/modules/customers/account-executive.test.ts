import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createCustomer, createUser, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
let app: FastifyInstance;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  admin = (await signedIn(app, 'admin')).cookie;
});
afterAll(async () => t?.close());

const put = (cookie: string | null, customerId: number | string, payload: unknown) =>
  request(app, cookie, {
    method: 'PUT',
    url: `/api/customers/${customerId}/account-executive`,
    payload: payload as object,
  });
const candidates = (cookie: string | null, customerId: number | string, filter?: string) =>
  request(app, cookie, {
    method: 'GET',
    url: `/api/customers/${customerId}/account-executive/candidates${
      filter === undefined ? '' : `?filter=${encodeURIComponent(filter)}`
    }`,
  });

const executive = (fullName: string, status: 'enabled' | 'disabled' = 'enabled') =>
  createUser(app.ctx.db, { type: 'accountExecutive', fullName, status });

const membershipsOf = (customerId: number) =>
  app.ctx.db
    .selectFrom('memberships')
    .select(['userId', 'role', 'status'])
    .where('customerId', '=', customerId)
    .orderBy('id')
    .execute();

describe('PUT /api/customers/:id/account-executive', () => {
  it('answers 401 to anonymous callers', async () => {
    const { id } = await createCustomer(app.ctx.db);
    const ae = await executive('Anon Pick');
    expect((await put(null, id, { userId: ae.id })).statusCode).toBe(401);
  });

  it('answers 400 on userId for a body that names no enabled account executive', async () => {
    const { id } = await createCustomer(app.ctx.db);
    const disabled = await executive('Gone Away', 'disabled');
    const support = await createUser(app.ctx.db, { type: 'supportEngineer' });
    const client = await createUser(app.ctx.db, { type: 'client' });
    for (const payload of [{}, { userId: 'x' }, { userId: 0 }, { userId: 1.5 }, { userId: 2147483648 }]) {
      const response = await put(admin, id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.details).toContainEqual(expect.objectContaining({ path: 'userId' }));
    }
    for (const userId of [disabled.id, support.id, client.id, 99999]) {
      const response = await put(admin, id, { userId });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.details).toEqual([{ path: 'userId', message: 'apiErrors.not_account_executive' }]);
    }
    expect(await membershipsOf(id)).toEqual([]);
  });

  it('answers 403 to roles without manageLicences, 404 to those with no role there', async () => {
    const { id } = await createCustomer(app.ctx.db);
    const other = await createCustomer(app.ctx.db);
    const ae = await executive('Refused Pick');
    const support = await signedIn(app, 'supportEngineer');
    expect((await put(support.cookie, id, { userId: ae.id })).statusCode).toBe(403);
    for (const role of ['businessOwner', 'technicalContact', 'endUser'] as const) {
      const member = await signedIn(app, 'client', { id, role });
      expect((await put(member.cookie, id, { userId: ae.id })).statusCode, role).toBe(403);
      expect((await candidates(member.cookie, id)).statusCode, role).toBe(403);
    }
    // The account executive of another customer changes nothing here
    const elsewhere = await signedIn(app, 'accountExecutive', { id: other.id, role: 'accountExecutive' });
    expect((await put(elsewhere.cookie, id, { userId: ae.id })).statusCode).toBe(404);
    expect((await candidates(elsewhere.cookie, id)).statusCode).toBe(404);
    expect((await put(admin, 99999, { userId: ae.id })).statusCode).toBe(404);
    expect((await membershipsOf(id)).filter((m) => m.role === 'accountExecutive')).toEqual([]);
  });

  it('makes the user the account executive, replaces the previous one, and logs both', async () => {
    const { id } = await createCustomer(app.ctx.db);
    const first = await executive('First Executive');
    const second = await executive('Second Executive');

    const response = await put(admin, id, { userId: first.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id,
      accountExecutive: { fullName: 'First Executive', email: first.email },
    });
    expect(await membershipsOf(id)).toEqual([{ userId: first.id, role: 'accountExecutive', status: 'enabled' }]);

    // The account executive in place hands the customer over to a colleague (product managers may too)
    const pm = await signedIn(app, 'productManager');
    expect((await put(pm.cookie, id, { userId: second.id })).json().accountExecutive).toEqual({
      fullName: 'Second Executive',
      email: second.email,
    });
    expect(await membershipsOf(id)).toEqual([
      { userId: first.id, role: 'accountExecutive', status: 'disabled' },
      { userId: second.id, role: 'accountExecutive', status: 'enabled' },
    ]);
    // Choosing the one in place changes nothing; choosing a former one brings their membership back
    expect((await put(admin, id, { userId: second.id })).statusCode).toBe(200);
    expect((await put(admin, id, { userId: first.id })).statusCode).toBe(200);
    expect(await membershipsOf(id)).toEqual([
      { userId: first.id, role: 'accountExecutive', status: 'enabled' },
      { userId: second.id, role: 'accountExecutive', status: 'disabled' },
    ]);

    const log = await app.ctx.db
      .selectFrom('auditLog')
      .select(['action', 'data'])
      .where('customerId', '=', id)
      .orderBy('id')
      .execute();
    expect(log.map((entry) => ({ ...entry, data: JSON.parse(entry.data) }))).toEqual([
      {
        action: 'setAccountExecutive',
        data: { accountExecutive: { id: first.id, fullName: 'First Executive', email: first.email }, previous: [] },
      },
      {
        action: 'setAccountExecutive',
        data: {
          accountExecutive: { id: second.id, fullName: 'Second Executive', email: second.email },
          previous: [{ id: first.id, fullName: 'First Executive', email: first.email }],
        },
      },
      {
        action: 'setAccountExecutive',
        data: {
          accountExecutive: { id: first.id, fullName: 'First Executive', email: first.email },
          previous: [{ id: second.id, fullName: 'Second Executive', email: second.email }],
        },
      },
    ]);
  });

  it('lets the account executive of the customer hand it over, after which they see it no more', async () => {
    const { id } = await createCustomer(app.ctx.db);
    const current = await signedIn(app, 'accountExecutive', { id, role: 'accountExecutive' });
    const next = await executive('Next Executive');
    expect((await put(current.cookie, id, { userId: next.id })).statusCode).toBe(200);
    expect((await request(app, current.cookie, { method: 'GET', url: `/api/customers/${id}` })).statusCode).toBe(404);
  });

  it('turns an existing membership of the chosen user into the account executive one', async () => {
    const { id } = await createCustomer(app.ctx.db);
    const ae = await executive('Was Owner');
    await addMembership(app.ctx.db, ae.id, id, 'businessOwner', 'disabled');
    expect((await put(admin, id, { userId: ae.id })).statusCode).toBe(200);
    expect(await membershipsOf(id)).toEqual([{ userId: ae.id, role: 'accountExecutive', status: 'enabled' }]);
  });

  it('leaves one account executive when two changes race', async () => {
    const { id } = await createCustomer(app.ctx.db);
    const a = await executive('Racer One');
    const b = await executive('Racer Two');
    const answers = await Promise.all([put(admin, id, { userId: a.id }), put(admin, id, { userId: b.id })]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    const enabled = (await membershipsOf(id)).filter((m) => m.status === 'enabled');
    expect(enabled).toHaveLength(1);
  });
});

describe('GET /api/customers/:id/account-executive/candidates', () => {
  it('answers 401 to anonymous callers and 400 to a repeated filter', async () => {
    const { id } = await createCustomer(app.ctx.db);
    expect((await candidates(null, id)).statusCode).toBe(401);
    const response = await request(app, admin, {
      method: 'GET',
      url: `/api/customers/${id}/account-executive/candidates?filter=a&filter=b`,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([expect.objectContaining({ path: 'filter' })]);
  });

  it('lists enabled account executives by name, searched by name or e-mail as plain text', async () => {
    const { id } = await createCustomer(app.ctx.db);
    await executive('Zoé Candidate_One');
    await executive('Anna CandidateXOne');
    await executive('Disabled Candidate', 'disabled');
    await createUser(app.ctx.db, { type: 'supportEngineer', fullName: 'Support Candidate' });
    const executiveOfCustomer = await signedIn(app, 'accountExecutive', { id, role: 'accountExecutive' });
    const names = async (filter?: string) =>
      ((await candidates(executiveOfCustomer.cookie, id, filter)).json().data as { fullName: string }[]).map(
        (c) => c.fullName,
      );
    expect(await names('candidate')).toEqual(['Anna CandidateXOne', 'Zoé Candidate_One']);
    expect(await names('e_o')).toEqual(['Zoé Candidate_One']);
    expect(await names('%')).toEqual([]);
    const all = (await candidates(admin, id)).json().data;
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all[0]).toEqual({ id: expect.any(Number), fullName: expect.any(String), email: expect.any(String) });
  });
});
