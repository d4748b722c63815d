import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createCustomer, createUser, login } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const me = (cookie: string | null) => request(t.app, cookie, { method: 'GET', url: '/api/auth/me' });
const patchMe = (cookie: string | null, payload: unknown) =>
  request(t.app, cookie, { method: 'PATCH', url: '/api/auth/me', payload: payload as object });

describe('GET /api/auth/me', () => {
  it('401 without a session', async () => {
    const response = await me(null);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('unauthenticated');
  });

  it('staff without memberships: their type as role, no accounts', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'supportEngineer', fullName: 'Sam Support' });
    const response = await me(await login(t.app, user.email));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user.id,
      email: user.email,
      fullName: 'Sam Support',
      preferredLocale: 'en',
      type: 'supportEngineer',
      yourRole: 'supportEngineer',
      accounts: [],
      accountsTotal: 0,
      // spec section 2: a support engineer sees the home page and the customers, not the products or users
      can: {
        viewHome: true,
        viewCustomers: true,
        viewProducts: false,
        manageUsers: false,
        addCustomer: false,
        addProduct: false,
        viewDownloadAnalytics: false,
        manageWebhooks: false,
        manageBackgroundWork: false,
        brandToRoot: true,
        brandToAccount: false,
        homeLink: false,
        accountExecutiveContact: false,
        renewLicences: false,
      },
      twoFactorSetupRequired: false,
    });
  });

  it('a client: accounts by name with role and account executive, strongest role, disabled memberships left out', async () => {
    const { db } = t.app.ctx;
    const zeta = await createCustomer(db, { name: 'Zeta Corp' });
    const alpha = await createCustomer(db, { name: 'Alpha Ltd' });
    const hidden = await createCustomer(db, { name: 'Hidden Inc' });
    const exec = await createUser(db, { type: 'accountExecutive', fullName: 'Eve Exec' });
    await addMembership(db, exec.id, alpha.id, 'accountExecutive');
    const client = await createUser(db, { type: 'client', fullName: 'Carl Client' });
    await addMembership(db, client.id, zeta.id, 'technicalContact');
    await addMembership(db, client.id, alpha.id, 'businessOwner');
    const off = await addMembership(db, client.id, hidden.id, 'businessOwner');
    await db.updateTable('memberships').set({ status: 'disabled' }).where('id', '=', off.id).execute();

    const body = (await me(await login(t.app, client.email))).json();
    expect(body.yourRole).toBe('businessOwner');
    expect(body.accountsTotal).toBe(2);
    expect(body.accounts).toEqual([
      {
        id: alpha.id,
        name: 'Alpha Ltd',
        role: 'businessOwner',
        accountExecutive: { fullName: 'Eve Exec', email: exec.email },
      },
      { id: zeta.id, name: 'Zeta Corp', role: 'technicalContact', accountExecutive: null },
    ]);
  });

  it('an account executive counts as one through their memberships', async () => {
    const { db } = t.app.ctx;
    const customer = await createCustomer(db, { name: 'Exec Customer' });
    const exec = await createUser(db, { type: 'accountExecutive', fullName: 'Ed Exec' });
    await addMembership(db, exec.id, customer.id, 'accountExecutive');
    const body = (await me(await login(t.app, exec.email))).json();
    expect(body.yourRole).toBe('accountExecutive');
    expect(body.accounts).toEqual([
      {
        id: customer.id,
        name: 'Exec Customer',
        role: 'accountExecutive',
        accountExecutive: { fullName: 'Ed Exec', email: exec.email },
      },
    ]);
  });

  it('a client lists at most 50 accounts and counts them all', async () => {
    const { db } = t.app.ctx;
    const client = await createUser(db, { type: 'client' });
    for (let i = 0; i < 52; i++) {
      const customer = await createCustomer(db, { name: `Many ${String(i).padStart(2, '0')}` });
      await addMembership(db, client.id, customer.id, 'endUser');
    }
    const body = (await me(await login(t.app, client.email))).json();
    expect(body.accountsTotal).toBe(52);
    expect(body.accounts).toHaveLength(50);
    expect(body.accounts[0].name).toBe('Many 00');
    expect(body.yourRole).toBe('endUser');
  });
});

describe('PATCH /api/auth/me', () => {
  it('401 without a session', async () => {
    expect((await patchMe(null, { fullName: 'X' })).statusCode).toBe(401);
  });

  it('400 on fields that are not the profile’s, and the stored row stays as it was', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'client', fullName: 'Mallory' });
    const cookie = await login(t.app, user.email);
    const before = await t.app.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    for (const payload of [
      { type: 'admin' },
      { status: 'disabled' },
      { fullName: 'Mallory Admin', type: 'admin' },
      { passwordHash: 'x' },
    ]) {
      const response = await patchMe(cookie, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
    }
    const after = await t.app.ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(after.type).toBe('client');
    expect(after.status).toBe('enabled');
  });

  it('400 on an invalid e-mail, an empty name or an unknown language', async () => {
    const user = await createUser(t.app.ctx.db);
    const cookie = await login(t.app, user.email);
    for (const payload of [{ email: 'nope' }, { fullName: '  ' }, { preferredLocale: 'de' }]) {
      expect((await patchMe(cookie, payload)).statusCode).toBe(400);
    }
  });

  it('updates full name and language at once, and answers the new profile', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'productManager' });
    const cookie = await login(t.app, user.email);
    const response = await patchMe(cookie, { fullName: 'Pat New', preferredLocale: 'fr' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: user.email,
      fullName: 'Pat New',
      preferredLocale: 'fr',
      type: 'productManager',
    });
    expect((await me(cookie)).json().fullName).toBe('Pat New');
    // Sending one's own e-mail again, whatever its case, is no change and needs no password.
    expect((await patchMe(cookie, { email: user.email.toUpperCase() })).statusCode).toBe(200);
    expect((await patchMe(cookie, {})).statusCode).toBe(200);
  });
});
