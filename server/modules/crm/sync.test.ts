import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import {
  addMembership,
  createCustomer,
  createLicence,
  createProduct,
  createUser,
  signedIn,
} from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { makeJobsDue } from '../../test/jobs';
import { SalesforcePeer } from '../../test/salesforce-peer';
import { CRM_SYNC_JOB } from './service';

/**
 * POST /api/customers/{id}/sync and the sync on change (docs/decisions/073), against a local peer
 * that speaks Salesforce's REST wire protocol (server/test/salesforce-peer.ts).
 */

const peer = new SalesforcePeer();
let t: TestApp;

beforeAll(async () => {
  await peer.listen();
  t = await createTestApp(peer.env());
});
afterAll(async () => {
  await t?.close();
  await peer.close();
});
beforeEach(() => {
  peer.requests.length = 0;
});

const sync = (cookie: string, customerId: number) =>
  request(t.app, cookie, { method: 'POST', url: `/api/customers/${customerId}/sync` });

/** A customer with two members and a licence, and a product manager who may sync it. */
async function customerWithTeam() {
  const { db } = t.app.ctx;
  const customer = await createCustomer(db, { name: 'Graph Analytics Ltd' });
  const owner = await createUser(db, { type: 'client', fullName: 'Ada Lovelace' });
  const contact = await createUser(db, { type: 'client', fullName: 'Plato' });
  const ownerMembership = await addMembership(db, owner.id, customer.id, 'businessOwner');
  await addMembership(db, contact.id, customer.id, 'technicalContact');
  const product = await createProduct(db, { name: 'Graph Studio' });
  const licence = await createLicence(db, customer.id, product.key, { startDate: '2026-01-01', endDate: '2027-01-01' });
  const staff = await signedIn(t.app, 'productManager');
  return { customer, owner, contact, ownerMembership, product, licence, staff };
}

const stored = (type: string, externalId: number) => peer.records.get(type)?.get(String(externalId));

describe('POST /api/customers/{id}/sync', () => {
  it('upserts the account, its contacts and licences by external id, and keeps the account id', async () => {
    const { customer, owner, ownerMembership, product, licence, staff } = await customerWithTeam();
    const response = await sync(staff.cookie, customer.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true });

    expect(peer.requests[0]).toEqual({ method: 'POST', path: '/services/oauth2/token', status: 200 });
    const upserts = peer.requests.slice(1);
    expect(upserts.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      `PATCH /services/data/v62.0/sobjects/Account/Portal_Customer_Id__c/${customer.id} 201`,
      expect.stringMatching(/^PATCH \/services\/data\/v62\.0\/sobjects\/Contact\/Portal_Membership_Id__c\/\d+ 201$/),
      expect.stringMatching(/^PATCH \/services\/data\/v62\.0\/sobjects\/Contact\/Portal_Membership_Id__c\/\d+ 201$/),
      `PATCH /services/data/v62.0/sobjects/Portal_Licence__c/Portal_Licence_Id__c/${licence.id} 201`,
    ]);
    const account = stored('Account', customer.id)!;
    expect(account).toMatchObject({ Name: 'Graph Analytics Ltd', Portal_Self_Service__c: false });
    expect(stored('Contact', ownerMembership.id)).toMatchObject({
      AccountId: account.Id,
      FirstName: 'Ada',
      LastName: 'Lovelace',
      Email: owner.email,
      Portal_Role__c: 'businessOwner',
      Portal_Status__c: 'enabled',
    });
    // a one-word name is the last name, which Salesforce requires
    expect([...peer.records.get('Contact')!.values()].some((c) => c.LastName === 'Plato' && c.FirstName === null)).toBe(
      true,
    );
    expect(stored('Portal_Licence__c', licence.id)).toMatchObject({
      Account__c: account.Id,
      Product_Key__c: product.key,
      Product_Name__c: 'Graph Studio',
      Access_Level__c: 'stable',
      Start_Date__c: '2026-01-01',
      End_Date__c: '2027-01-01',
      Entity_Resolution__c: false,
    });
    const row = await t.app.ctx.db
      .selectFrom('customers')
      .select(['crmId', 'crmSyncedAt'])
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(row.crmId).toBe(account.Id);
    expect(row.crmSyncedAt).toBeTruthy();
    // the customer's recent actions tell who pushed it
    const audit = await t.app.ctx.db
      .selectFrom('auditLog')
      .select(['actorEmail', 'actorKind', 'data'])
      .where('customerId', '=', customer.id)
      .where('action', '=', 'syncCustomerToCrm')
      .execute();
    expect(audit).toEqual([
      { actorEmail: staff.email, actorKind: 'user', data: JSON.stringify({ crmId: account.Id }) },
    ]);
  });

  it('changes nothing when synced again: every upsert answers 204 and no record differs', async () => {
    const { customer, staff } = await customerWithTeam();
    expect((await sync(staff.cookie, customer.id)).statusCode).toBe(200);
    const before = structuredClone([...peer.records.entries()].map(([type, m]) => [type, [...m.entries()]]));
    const writes = peer.writes;
    peer.requests.length = 0;

    expect((await sync(staff.cookie, customer.id)).statusCode).toBe(200);
    expect(peer.writes).toBe(writes);
    expect(peer.requests.filter((r) => r.method === 'PATCH').map((r) => r.status)).toEqual([204, 204, 204, 204]);
    expect([...peer.records.entries()].map(([type, m]) => [type, [...m.entries()]])).toEqual(before);
    const { crmId } = await t.app.ctx.db
      .selectFrom('customers')
      .select('crmId')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(crmId).toBe(stored('Account', customer.id)!.Id);
  });

  it('pushes a rename made in the portal to the same account', async () => {
    const { customer, staff } = await customerWithTeam();
    await sync(staff.cookie, customer.id);
    const { Id } = stored('Account', customer.id)!;
    const admin = await signedIn(t.app, 'admin');
    const renamed = await request(t.app, admin.cookie, {
      method: 'PATCH',
      url: `/api/customers/${customer.id}`,
      payload: { name: 'Graph Analytics Group' },
    });
    expect(renamed.statusCode).toBe(200);
    const writes = peer.writes;
    expect((await sync(staff.cookie, customer.id)).statusCode).toBe(200);
    expect(peer.writes).toBe(writes + 1);
    expect(stored('Account', customer.id)).toMatchObject({ Id, Name: 'Graph Analytics Group' });
  });

  it("answers the CRM's error in Salesforce's words (502 crm_error), storing nothing", async () => {
    const { customer, staff } = await customerWithTeam();
    peer.failNext(400, [
      { message: "No such column 'Portal_Role__c' on sobject of type Contact", errorCode: 'INVALID_FIELD', fields: [] },
    ]);
    const refused = await sync(staff.cookie, customer.id);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error).toMatchObject({
      code: 'crm_error',
      message: "INVALID_FIELD: No such column 'Portal_Role__c' on sobject of type Contact",
    });
    const { crmId } = await t.app.ctx.db
      .selectFrom('customers')
      .select('crmId')
      .where('id', '=', customer.id)
      .executeTakeFirstOrThrow();
    expect(crmId).toBeNull();
  });

  it('says when the CRM refuses the credentials or cannot be reached', async () => {
    const wrong = await createTestApp(peer.env({ SALESFORCE_CLIENT_SECRET: 'not-the-secret' }));
    const down = await createTestApp(peer.env({ SALESFORCE_LOGIN_URL: 'http://127.0.0.1:9' }));
    try {
      for (const [app, message] of [
        [wrong, 'invalid_client: invalid client credentials'],
        [down, /ECONNREFUSED|fetch failed/],
      ] as const) {
        const admin = await signedIn(app.app, 'admin');
        const other = await createCustomer(app.app.ctx.db);
        const response = await request(app.app, admin.cookie, {
          method: 'POST',
          url: `/api/customers/${other.id}/sync`,
        });
        expect(response.statusCode).toBe(502);
        expect(response.json().error.message).toMatch(message);
      }
    } finally {
      await wrong.close();
      await down.close();
    }
  });

  it('answers 409 crm_not_configured without the CRM settings, says so in can, and refuses roles without the capability', async () => {
    const bare = await createTestApp();
    try {
      const admin = await signedIn(bare.app, 'admin');
      const customer = await createCustomer(bare.app.ctx.db);
      const response = await request(bare.app, admin.cookie, {
        method: 'POST',
        url: `/api/customers/${customer.id}/sync`,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toMatchObject({
        code: 'crm_not_configured',
        message: 'The connection to SalesForce is not configured on this portal.',
      });
      const answer = (await request(bare.app, admin.cookie, { url: `/api/customers/${customer.id}` })).json();
      expect(answer.can).toMatchObject({ telemetryAndSync: true, syncWithCrm: false });
    } finally {
      await bare.close();
    }
    const { customer } = await customerWithTeam();
    const staff = await signedIn(t.app, 'admin');
    const configured = (await request(t.app, staff.cookie, { url: `/api/customers/${customer.id}` })).json();
    expect(configured.can).toMatchObject({ telemetryAndSync: true, syncWithCrm: true });
    const owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
    expect((await sync(owner.cookie, customer.id)).statusCode).toBe(403);
  });
});

describe('the sync on change (CRM_SYNC_ON_CHANGE)', () => {
  it('pushes a customer created or renamed in the portal by a job, retried after a CRM failure', async () => {
    // a CRM of its own: this app's customer ids start again at 1
    const peer = new SalesforcePeer();
    await peer.listen();
    const stored = (type: string, externalId: number) => peer.records.get(type)?.get(String(externalId));
    const app = await createTestApp(peer.env({ CRM_SYNC_ON_CHANGE: 'true' }));
    try {
      const { ctx } = app.app;
      const admin = await signedIn(app.app, 'admin');
      const created = await request(app.app, admin.cookie, {
        method: 'POST',
        url: '/api/customers',
        payload: { name: 'Queued Graphs', customerKey: '', selfService: false },
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().id as number;
      // (jsforce retries 5xx answers itself; a lock held elsewhere is a 400 that the job engine retries)
      peer.failNext(400, [
        { message: 'unable to obtain exclusive access to this record', errorCode: 'UNABLE_TO_LOCK_ROW', fields: [] },
      ]);
      await ctx.jobs.drain();
      expect(stored('Account', id)).toBeUndefined();
      const waiting = (await ctx.jobs.counts()).filter((c) => c.name === CRM_SYNC_JOB && c.count > 0);
      expect(waiting.map((c) => c.state)).toEqual(['retry']);

      await makeJobsDue(ctx.db, CRM_SYNC_JOB);
      await ctx.jobs.drain();
      expect(stored('Account', id)).toMatchObject({ Name: 'Queued Graphs' });
      const pushedBy = await ctx.db
        .selectFrom('auditLog')
        .select(['actorKind', 'actorName'])
        .where('customerId', '=', id)
        .where('action', '=', 'syncCustomerToCrm')
        .execute();
      expect(pushedBy).toEqual([{ actorKind: 'integration', actorName: 'crm' }]);

      await request(app.app, admin.cookie, {
        method: 'PATCH',
        url: `/api/customers/${id}`,
        payload: { name: 'Queued Graphs 2' },
      });
      await ctx.jobs.drain();
      expect(stored('Account', id)).toMatchObject({ Name: 'Queued Graphs 2' });
    } finally {
      await app.close();
      await peer.close();
    }
  });

  it('is refused at start without the CRM settings', () => {
    expect(() => loadConfig({ CRM_SYNC_ON_CHANGE: 'true' })).toThrow(
      /CRM_SYNC_ON_CHANGE: needs the Salesforce settings/,
    );
    expect(() => loadConfig({ SALESFORCE_LOGIN_URL: 'https://login.salesforce.com' })).toThrow(
      /SALESFORCE_LOGIN_URL, SALESFORCE_CLIENT_ID and SALESFORCE_CLIENT_SECRET must be set together/,
    );
  });
});
