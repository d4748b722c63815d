import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_KEY_ALPHABET } from '../../../common/customer-key';
import { createCustomer, signedIn } from '../../test/factories';
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

const post = (cookie: string | null, payload: unknown) =>
  request(app, cookie, { method: 'POST', url: '/api/customers', payload: payload as object });
const patch = (cookie: string | null, id: number | string, payload: unknown) =>
  request(app, cookie, { method: 'PATCH', url: `/api/customers/${id}`, payload: payload as object });

const auditOf = (customerId: number) =>
  app.ctx.db
    .selectFrom('auditLog')
    .select(['action', 'actorEmail', 'data'])
    .where('customerId', '=', customerId)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, data: JSON.parse(row.data) })));

describe('POST /api/customers', () => {
  it('answers 401 to anonymous callers', async () => {
    expect((await post(null, { name: 'Anon' })).statusCode).toBe(401);
  });

  it('answers 400 with the field named to a body that breaks the rules', async () => {
    for (const [payload, path] of [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'Short key', customerKey: 'ABC' }, 'customerKey'],
      [{ name: 'Long key', customerKey: 'ABCDEFGHIJK' }, 'customerKey'],
      [{ name: 'Flag', selfService: 'yes' }, 'selfService'],
      [{ name: 'Extra', crmId: 'x' }, ''],
    ] as const) {
      const response = await post(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
      if (path) expect(response.json().error.details).toContainEqual(expect.objectContaining({ path }));
    }
    expect((await post(admin, { name: 'Short key', customerKey: 'ABC' })).json().error.details).toEqual([
      { path: 'customerKey', message: 'customers.errors.keyLength' },
    ]);
  });

  it('answers 403 to everyone but admins', async () => {
    for (const type of ['productManager', 'supportEngineer', 'accountExecutive', 'client'] as const) {
      const { cookie } = await signedIn(app, type);
      expect((await post(cookie, { name: `By ${type}` })).statusCode, type).toBe(403);
    }
  });

  it('creates the customer with the given key, and writes who did it in its log', async () => {
    const response = await post(admin, { name: '  Initech  ', customerKey: ' INIT000001 ', selfService: true });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Initech',
      customerKey: 'INIT000001',
      selfService: true,
      // a self-service customer starts in trial (decisions.md), so its contacts see their page
      paymentStatus: 'trial',
      accountExecutive: null,
      billingEmail: null,
      yourRole: 'admin',
      yourMembershipId: null,
      yourSettings: null,
      // an admin may do everything with it but see the contacts' access levels and billing contact
      can: {
        edit: true,
        viewLicences: true,
        addLicence: true,
        viewLicenceDetails: true,
        viewLicenceAccessLevels: false,
        download: true,
        viewTeam: true,
        viewRecentActions: true,
        chooseInvitationLocale: true,
        copyInvitationLink: true,
        changeAccountExecutive: true,
        viewSubscription: true,
        pay: true,
        viewBillingContact: false,
        telemetryAndSync: true,
        // the test app has no CRM set up: no sync offered
        syncWithCrm: false,
        viewSaasLogs: true,
        viewUnpaidAccount: true,
        inviteRoles: ['accountExecutive', 'businessOwner', 'technicalContact', 'endUser'],
      },
    });
    // the answer to the creation is the one a GET gives, abilities included
    expect((await request(app, admin, { method: 'GET', url: `/api/customers/${created.id}` })).json()).toEqual(created);
    expect(await auditOf(created.id)).toEqual([
      {
        action: 'createCustomer',
        actorEmail: expect.stringContaining('@'),
        data: { name: 'Initech', customerKey: 'INIT000001', selfService: true },
      },
    ]);
  });

  it('gives a customer that is not self-service no payment status', async () => {
    const response = await post(admin, { name: 'Managed Account' });
    expect(response.statusCode).toBe(201);
    expect(response.json().paymentStatus).toBeNull();
    const rows = await app.ctx.db
      .selectFrom('subscriptions')
      .select('id')
      .where('customerId', '=', response.json().id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('generates a 10-character key of unambiguous characters when none is given', async () => {
    const keys = new Set<string>();
    for (const payload of [
      { name: 'No key' },
      { name: 'Empty key', customerKey: '' },
      { name: 'Blank', customerKey: '  ' },
    ]) {
      const response = await post(admin, payload);
      expect(response.statusCode).toBe(201);
      const { customerKey, selfService } = response.json();
      expect(customerKey).toMatch(new RegExp(`^[${CUSTOMER_KEY_ALPHABET}]{10}$`));
      expect(selfService).toBe(false);
      keys.add(customerKey);
    }
    expect(keys.size).toBe(3);
  });

  it('answers 409 on the customerKey field for a key in use, and creates nothing', async () => {
    await createCustomer(app.ctx.db, { name: 'Holder', customerKey: 'TAKEN00001' });
    const response = await post(admin, { name: 'Second', customerKey: 'TAKEN00001' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toEqual({
      code: 'customer_key_taken',
      message: 'A customer with this key already exists',
      details: [{ path: 'customerKey', message: 'apiErrors.customer_key_taken' }],
    });
    const rows = await app.ctx.db.selectFrom('customers').select('id').where('name', '=', 'Second').execute();
    expect(rows).toEqual([]);
  });

  it('creates one customer when two requests race for one key', async () => {
    const answers = await Promise.all([
      post(admin, { name: 'Racer A', customerKey: 'RACE000001' }),
      post(admin, { name: 'Racer B', customerKey: 'RACE000001' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });
});

describe('PATCH /api/customers/:id', () => {
  it('answers 401 to anonymous callers', async () => {
    const { id } = await createCustomer(app.ctx.db);
    expect((await patch(null, id, { name: 'Anon' })).statusCode).toBe(401);
  });

  it('answers 400 to a body that breaks the rules', async () => {
    const { id } = await createCustomer(app.ctx.db);
    for (const [payload, path] of [
      [{ name: '' }, 'name'],
      [{ customerKey: '' }, 'customerKey'],
      [{ customerKey: 'NINE00009' }, 'customerKey'],
      [{ selfService: true }, ''],
    ] as const) {
      const response = await patch(admin, id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      if (path) expect(response.json().error.details).toContainEqual(expect.objectContaining({ path }));
    }
    expect((await patch(admin, 'abc', { name: 'x' })).statusCode).toBe(400);
  });

  it('answers 403 to other staff and members, 404 to outsiders and for an unknown customer', async () => {
    const { id } = await createCustomer(app.ctx.db);
    for (const type of ['productManager', 'supportEngineer'] as const) {
      expect((await patch((await signedIn(app, type)).cookie, id, { name: 'x' })).statusCode, type).toBe(403);
    }
    const executive = await signedIn(app, 'accountExecutive', { id, role: 'accountExecutive' });
    expect((await patch(executive.cookie, id, { name: 'x' })).statusCode).toBe(403);
    const owner = await signedIn(app, 'client', { id, role: 'businessOwner' });
    expect((await patch(owner.cookie, id, { name: 'x' })).statusCode).toBe(403);
    const outsider = await signedIn(app, 'accountExecutive');
    expect((await patch(outsider.cookie, id, { name: 'x' })).statusCode).toBe(404);
    expect((await patch(admin, 99999, { name: 'x' })).statusCode).toBe(404);
  });

  it('changes name and key, records the old and new values, and writes nothing when nothing changes', async () => {
    const { id } = await createCustomer(app.ctx.db, { name: 'Old Name', customerKey: 'OLDKEY0001' });
    const response = await patch(admin, id, { name: 'New Name', customerKey: 'NEWKEY0001' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, name: 'New Name', customerKey: 'NEWKEY0001', yourRole: 'admin' });
    expect(await auditOf(id)).toEqual([
      {
        action: 'updateCustomer',
        actorEmail: expect.any(String),
        data: { name: { from: 'Old Name', to: 'New Name' }, customerKey: { from: 'OLDKEY0001', to: 'NEWKEY0001' } },
      },
    ]);
    expect((await patch(admin, id, { name: 'New Name', customerKey: 'NEWKEY0001' })).statusCode).toBe(200);
    expect((await patch(admin, id, { name: 'Renamed Again' })).json()).toMatchObject({ customerKey: 'NEWKEY0001' });
    expect((await auditOf(id)).map((entry) => entry.data)).toEqual([
      expect.anything(),
      { name: { from: 'New Name', to: 'Renamed Again' } },
    ]);
  });

  it("answers 409 on the customerKey field for another customer's key, and changes nothing", async () => {
    await createCustomer(app.ctx.db, { customerKey: 'OTHERKEY01' });
    const { id } = await createCustomer(app.ctx.db, { name: 'Keeps', customerKey: 'KEEPSKEY01' });
    const response = await patch(admin, id, { name: 'Changed', customerKey: 'OTHERKEY01' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details).toEqual([{ path: 'customerKey', message: 'apiErrors.customer_key_taken' }]);
    expect((await request(app, admin, { method: 'GET', url: `/api/customers/${id}` })).json()).toMatchObject({
      name: 'Keeps',
      customerKey: 'KEEPSKEY01',
    });
  });
});
