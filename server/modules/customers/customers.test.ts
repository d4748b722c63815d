import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentStatus } from '../../../common/domain';
import type { MemberRole, UserType } from '../../../common/roles';
import { nowIso } from '../../db';
import { addMembership, createCustomer, createUser, login, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
let app: FastifyInstance;
let acme: { id: number };
let globex: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  acme = await createCustomer(app.ctx.db, { name: 'Acme', customerKey: 'ACME000001', selfService: true });
  globex = await createCustomer(app.ctx.db, { name: 'Globex', customerKey: 'GLOBEX0001' });
});
afterAll(async () => t?.close());

const getCustomer = (cookie: string | null, id: number | string) =>
  request(app, cookie, { method: 'GET', url: `/api/customers/${id}` });

async function setMembershipStatus(membershipId: number, status: 'enabled' | 'disabled') {
  await app.ctx.db.updateTable('memberships').set({ status }).where('id', '=', membershipId).execute();
}

async function addSubscription(customerId: number, status: PaymentStatus) {
  const now = nowIso();
  await app.ctx.db
    .insertInto('subscriptions')
    .values({
      customerId,
      provider: 'builtin',
      providerCustomerId: null,
      providerSubscriptionId: null,
      status,
      currentPeriodEnd: null,
      graceUntil: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

/** A signed-in member of `customerId`, with the id of their membership. */
async function member(type: UserType, customerId: number, role: MemberRole) {
  const user = await createUser(app.ctx.db, { type, fullName: `${role} of ${customerId}` });
  const membership = await addMembership(app.ctx.db, user.id, customerId, role);
  return { ...user, membershipId: membership.id, cookie: await login(app, user.email) };
}

describe('GET /api/customers/:id: who sees a customer', () => {
  it('answers 401 to anonymous callers, whatever the id', async () => {
    for (const id of [acme.id, 99999, 'abc', 0]) expect((await getCustomer(null, id)).statusCode).toBe(401);
  });

  it('answers 400 to a signed-in caller for an id that cannot name a customer, never a 500', async () => {
    const { cookie } = await signedIn(app, 'admin');
    for (const id of ['abc', '0', '-1', '1.5', '1e3', '99999999999', '2147483648']) {
      const response = await getCustomer(cookie, id);
      expect(response.statusCode, id).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'validation_error', details: [{ path: 'id' }] });
    }
  });

  it('shows the customer to admins, product managers and support engineers, member or not', async () => {
    // what each staff role may do in any customer (spec section 6), written out in full
    const staffCan = {
      admin: {
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
      productManager: {
        edit: false,
        viewLicences: true,
        addLicence: true,
        viewLicenceDetails: true,
        viewLicenceAccessLevels: false,
        download: false,
        viewTeam: false,
        viewRecentActions: false,
        chooseInvitationLocale: false,
        copyInvitationLink: false,
        changeAccountExecutive: true,
        viewSubscription: false,
        pay: false,
        viewBillingContact: false,
        telemetryAndSync: true,
        // the test app has no CRM set up: no sync offered
        syncWithCrm: false,
        viewSaasLogs: false,
        viewUnpaidAccount: false,
        inviteRoles: [],
      },
      supportEngineer: {
        edit: false,
        viewLicences: true,
        addLicence: false,
        viewLicenceDetails: true,
        viewLicenceAccessLevels: false,
        download: true,
        viewTeam: true,
        viewRecentActions: true,
        chooseInvitationLocale: false,
        copyInvitationLink: false,
        changeAccountExecutive: false,
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
    } as const;
    for (const type of ['admin', 'productManager', 'supportEngineer'] as const) {
      const { cookie } = await signedIn(app, type);
      const response = await getCustomer(cookie, acme.id);
      expect(response.statusCode, type).toBe(200);
      expect(response.json()).toEqual({
        id: acme.id,
        name: 'Acme',
        customerKey: 'ACME000001',
        selfService: true,
        paymentStatus: null,
        accountExecutive: null,
        billingEmail: null,
        yourRole: type,
        yourMembershipId: null,
        yourSettings: null,
        can: staffCan[type],
      });
    }
  });

  it('says what each staff role may do with it (spec section 6)', async () => {
    const expected = {
      admin: { edit: true, addLicence: true, download: true, viewTeam: true, copyInvitationLink: true, pay: true },
      productManager: {
        edit: false,
        addLicence: true,
        download: false,
        viewTeam: false,
        copyInvitationLink: false,
        pay: false,
      },
      supportEngineer: {
        edit: false,
        addLicence: false,
        download: true,
        viewTeam: true,
        copyInvitationLink: false,
        pay: true,
      },
    } as const;
    for (const type of ['admin', 'productManager', 'supportEngineer'] as const) {
      const { cookie } = await signedIn(app, type);
      const { can } = (await getCustomer(cookie, acme.id)).json();
      expect(can, type).toMatchObject(expected[type]);
      expect(can.inviteRoles, type).toEqual(
        expected[type].viewTeam ? ['accountExecutive', 'businessOwner', 'technicalContact', 'endUser'] : [],
      );
    }
  });

  it('shows it to its account executive and each client role, with their membership and settings', async () => {
    const cases = [
      ['accountExecutive', 'accountExecutive'],
      ['client', 'businessOwner'],
      ['client', 'technicalContact'],
      ['client', 'endUser'],
    ] as const;
    for (const [type, role] of cases) {
      const user = await member(type, globex.id, role);
      const response = await getCustomer(user.cookie, globex.id);
      expect(response.statusCode, role).toBe(200);
      expect(response.json()).toMatchObject({
        id: globex.id,
        yourRole: role,
        yourMembershipId: user.membershipId,
        yourSettings: {
          notifyLicenseExpiresSoon: true,
          notifyLicenseExpired: true,
          notifyProductDownload: true,
          notifyInvitationAccepted: true,
          notifyNewVersion: true,
          notifyNewProductLicense: true,
          notifyFirstProductDownload: true,
          notifyEmailError: true,
        },
      });
    }
  });

  it("gives the caller's own notification flags", async () => {
    const user = await member('client', globex.id, 'technicalContact');
    await app.ctx.db
      .updateTable('memberships')
      .set({ notifyNewVersion: 0, notifyEmailError: 0 })
      .where('id', '=', user.membershipId)
      .execute();
    const settings = (await getCustomer(user.cookie, globex.id)).json().yourSettings;
    expect(settings).toMatchObject({ notifyNewVersion: false, notifyEmailError: false, notifyLicenseExpired: true });
  });

  it('hides it (404) from a member of another customer, with the body of an unknown id', async () => {
    const unknown = 2_000_000_000;
    const outsiders = [
      await member('client', acme.id, 'businessOwner'),
      // the account executive of another customer only
      await member('accountExecutive', acme.id, 'accountExecutive'),
      // a client with no customer at all
      { cookie: (await signedIn(app, 'client')).cookie },
      // an account executive with no customer
      { cookie: (await signedIn(app, 'accountExecutive')).cookie },
    ];
    for (const outsider of outsiders) {
      const existing = await getCustomer(outsider.cookie, globex.id);
      const missing = await getCustomer(outsider.cookie, unknown);
      expect(existing.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(existing.body).toBe(missing.body);
      expect(existing.json().error.code).toBe('not_found');
    }
  });

  it('answers 404 to staff for an unknown customer', async () => {
    const { cookie } = await signedIn(app, 'admin');
    expect((await getCustomer(cookie, 2_000_000_000)).statusCode).toBe(404);
  });

  it('counts a disabled membership as none, and a re-enabled one again', async () => {
    for (const [type, role] of [
      ['client', 'businessOwner'],
      ['accountExecutive', 'accountExecutive'],
    ] as const) {
      const user = await member(type, globex.id, role);
      await setMembershipStatus(user.membershipId, 'disabled');
      const hidden = await getCustomer(user.cookie, globex.id);
      expect(hidden.statusCode, role).toBe(404);
      expect(hidden.body).toBe((await getCustomer(user.cookie, 2_000_000_000)).body);
      await setMembershipStatus(user.membershipId, 'enabled');
      expect((await getCustomer(user.cookie, globex.id)).statusCode, role).toBe(200);
    }
  });

  it('leaves a staff member with a disabled membership their own role, without the membership', async () => {
    const user = await member('supportEngineer', globex.id, 'technicalContact');
    await setMembershipStatus(user.membershipId, 'disabled');
    const response = await getCustomer(user.cookie, globex.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ yourRole: 'supportEngineer', yourMembershipId: null, yourSettings: null });
  });

  it('gives an account executive no role through a client membership, nor a client through an account executive one', async () => {
    const executive = await member('accountExecutive', globex.id, 'businessOwner');
    expect((await getCustomer(executive.cookie, globex.id)).statusCode).toBe(404);
    const client = await member('client', globex.id, 'accountExecutive');
    expect((await getCustomer(client.cookie, globex.id)).statusCode).toBe(404);
  });

  it('stops answering a member whose account is disabled', async () => {
    const user = await member('client', globex.id, 'businessOwner');
    expect((await getCustomer(user.cookie, globex.id)).statusCode).toBe(200);
    await app.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute();
    expect((await getCustomer(user.cookie, globex.id)).statusCode).toBe(401);
  });
});

describe('GET /api/customers/:id: what it shows', () => {
  it("reads the payment status from the customer's subscription", async () => {
    const customer = await createCustomer(app.ctx.db, { selfService: true });
    const { cookie } = await signedIn(app, 'admin');
    expect((await getCustomer(cookie, customer.id)).json().paymentStatus).toBeNull();
    await addSubscription(customer.id, 'pastDue');
    expect((await getCustomer(cookie, customer.id)).json().paymentStatus).toBe('pastDue');
  });

  it('names the earliest enabled account executive whose account is enabled', async () => {
    const customer = await createCustomer(app.ctx.db);
    const { cookie } = await signedIn(app, 'admin');
    const show = async () => (await getCustomer(cookie, customer.id)).json().accountExecutive;
    expect(await show()).toBeNull();

    const first = await member('accountExecutive', customer.id, 'accountExecutive');
    const second = await member('accountExecutive', customer.id, 'accountExecutive');
    await member('client', customer.id, 'businessOwner');
    expect(await show()).toEqual({ fullName: `accountExecutive of ${customer.id}`, email: first.email });

    await setMembershipStatus(first.membershipId, 'disabled');
    expect((await show()).email).toBe(second.email);

    await setMembershipStatus(first.membershipId, 'enabled');
    await app.ctx.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', first.id).execute();
    expect((await show()).email).toBe(second.email);
  });
});
