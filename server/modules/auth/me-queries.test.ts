import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createCustomer, createUser, login, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { PROFILE_ACCOUNTS_LIMIT } from './service';

/** DESIGN.md section 6: GET /api/auth/me in at most two queries, the session lookup included. */
let t: TestApp;
let app: FastifyInstance;
let counting = false;
const executed: string[] = [];

beforeAll(async () => {
  t = await createTestApp({}, {}, {}, { onQuery: (sql) => counting && executed.push(sql) });
  app = t.app;
});
afterAll(async () => t?.close());

/** The queries one GET /api/auth/me runs, and its answer. */
async function profileWithQueries(cookie: string) {
  executed.length = 0;
  counting = true;
  const response = await request(app, cookie, { method: 'GET', url: '/api/auth/me' });
  counting = false;
  expect(response.statusCode).toBe(200);
  return { body: response.json(), queries: [...executed] };
}

describe('GET /api/auth/me', () => {
  it('runs two queries for a member of several customers, their account executives included', async () => {
    const db = app.ctx.db;
    const executive = await createUser(db, { type: 'accountExecutive', fullName: 'Ada Exec' });
    const client = await createUser(db, { type: 'client' });
    for (const name of ['Beta', 'Alpha', 'Gamma']) {
      const customer = await createCustomer(db, { name: `${name} Queries` });
      await addMembership(db, client.id, customer.id, name === 'Gamma' ? 'businessOwner' : 'technicalContact');
      if (name !== 'Beta') await addMembership(db, executive.id, customer.id, 'accountExecutive');
    }
    const { body, queries } = await profileWithQueries(await login(app, client.email));

    expect(queries, queries.join('\n')).toHaveLength(2);
    expect(body).toMatchObject({ yourRole: 'businessOwner', accountsTotal: 3 });
    expect(body.accounts.map((a: { name: string }) => a.name)).toEqual([
      'Alpha Queries',
      'Beta Queries',
      'Gamma Queries',
    ]);
    expect(body.accounts[0].accountExecutive).toEqual({ fullName: 'Ada Exec', email: executive.email });
    expect(body.accounts[1].accountExecutive).toBeNull();
  });

  it('runs two queries for staff without any customer', async () => {
    const admin = await signedIn(app, 'admin');
    const { body, queries } = await profileWithQueries(admin.cookie);
    expect(queries).toHaveLength(2);
    expect(body).toMatchObject({ yourRole: 'admin', accounts: [], accountsTotal: 0 });
  });

  it('counts every account and every role, beyond the first page of accounts', async () => {
    const db = app.ctx.db;
    const client = await createUser(db, { type: 'client' });
    for (let i = 0; i < PROFILE_ACCOUNTS_LIMIT; i++) {
      const customer = await createCustomer(db, { name: `Many ${String(i).padStart(2, '0')}` });
      await addMembership(db, client.id, customer.id, 'endUser');
    }
    // Sorted last by name, so outside the accounts listed: its role still decides yourRole.
    const last = await createCustomer(db, { name: 'Zz Last Many' });
    await addMembership(db, client.id, last.id, 'technicalContact');

    const { body, queries } = await profileWithQueries(await login(app, client.email));
    expect(queries).toHaveLength(2);
    expect(body.accounts).toHaveLength(PROFILE_ACCOUNTS_LIMIT);
    expect(body.accountsTotal).toBe(PROFILE_ACCOUNTS_LIMIT + 1);
    expect(body.yourRole).toBe('technicalContact');
  });
});
