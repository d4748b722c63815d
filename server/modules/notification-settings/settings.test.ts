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
  acme = await createCustomer(app.ctx.db, { name: 'Acme', customerKey: 'ACME000001' });
  globex = await createCustomer(app.ctx.db, { name: 'Globex', customerKey: 'GLOBEX0001' });
});
afterAll(async () => t?.close());

const patch = (cookie: string | null, id: number | string, payload: unknown) =>
  request(app, cookie, { method: 'PATCH', url: `/api/members/${id}/settings`, payload: payload as object });
const mine = (cookie: string | null, query = '') =>
  request(app, cookie, { method: 'GET', url: `/api/members/mine${query}` });

async function member(type: UserType, customerId: number, role: MemberRole) {
  const user = await createUser(app.ctx.db, { type, fullName: `${role} person` });
  const membership = await addMembership(app.ctx.db, user.id, customerId, role);
  return { ...user, membershipId: membership.id, cookie: await login(app, user.email) };
}

async function flags(membershipId: number) {
  return app.ctx.db
    .selectFrom('memberships')
    .select(['notifyNewVersion', 'notifyEmailError'])
    .where('id', '=', membershipId)
    .executeTakeFirstOrThrow();
}

async function entries(customerId: number) {
  return app.ctx.db
    .selectFrom('auditLog')
    .selectAll()
    .where('customerId', '=', customerId)
    .where('action', '=', 'updateNotificationSettings')
    .orderBy('id')
    .execute();
}

describe('PATCH /api/members/:id/settings', () => {
  it('answers 401 to anonymous callers', async () => {
    const target = await member('client', acme.id, 'technicalContact');
    expect((await patch(null, target.membershipId, { notifyNewVersion: false })).statusCode).toBe(401);
  });

  it('answers 400 to a bad id or body, and changes nothing', async () => {
    const target = await member('client', acme.id, 'technicalContact');
    for (const id of ['abc', '0', '-3'])
      expect((await patch(target.cookie, id, { notifyNewVersion: false })).statusCode).toBe(400);
    for (const body of [
      {},
      { notifyNewVersion: 'no' },
      { notifyNewVersion: null },
      { notifyNewVersion: false, role: 'admin' },
      [],
    ]) {
      const response = await patch(target.cookie, target.membershipId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
    }
    expect(await flags(target.membershipId)).toEqual({ notifyNewVersion: 1, notifyEmailError: 1 });
  });

  it("refuses (403) a member without viewTeam on another's settings, hides other customers (404)", async () => {
    const target = await member('client', acme.id, 'businessOwner');
    const technical = await member('client', acme.id, 'technicalContact');
    const endUser = await member('client', acme.id, 'endUser');
    const productManager = await signedIn(app, 'productManager');
    for (const caller of [technical, endUser, productManager]) {
      expect((await patch(caller.cookie, target.membershipId, { notifyNewVersion: false })).statusCode).toBe(403);
    }
    const otherOwner = await member('client', globex.id, 'businessOwner');
    const otherExecutive = await member('accountExecutive', globex.id, 'accountExecutive');
    for (const caller of [otherOwner, otherExecutive]) {
      expect((await patch(caller.cookie, target.membershipId, { notifyNewVersion: false })).statusCode).toBe(404);
      expect((await patch(caller.cookie, 2_000_000_000, { notifyNewVersion: false })).statusCode).toBe(404);
    }
    // a disabled membership is no role: its owner cannot change it
    const disabled = await member('client', acme.id, 'technicalContact');
    await app.ctx.db
      .updateTable('memberships')
      .set({ status: 'disabled' })
      .where('id', '=', disabled.membershipId)
      .execute();
    expect((await patch(disabled.cookie, disabled.membershipId, { notifyNewVersion: false })).statusCode).toBe(404);
    expect(await flags(target.membershipId)).toEqual({ notifyNewVersion: 1, notifyEmailError: 1 });
    expect(await entries(acme.id)).toEqual([]);
  });

  it('lets the member change their own flags, partly, with one audit entry naming the change', async () => {
    const self = await member('client', acme.id, 'technicalContact');
    const response = await patch(self.cookie, self.membershipId, { notifyNewVersion: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      membershipId: self.membershipId,
      customerId: acme.id,
      customerName: 'Acme',
      role: 'technicalContact',
      settings: { notifyNewVersion: false, notifyEmailError: true, notifyLicenseExpired: true },
    });
    expect(await flags(self.membershipId)).toEqual({ notifyNewVersion: 0, notifyEmailError: 1 });
    const [entry] = (await entries(acme.id)).slice(-1);
    expect(entry.actorEmail).toBe(self.email);
    expect(JSON.parse(entry.data)).toEqual({
      memberEmail: self.email,
      memberFullName: 'technicalContact person',
      role: 'technicalContact',
      changes: { notifyNewVersion: { from: true, to: false } },
    });
    // the same values again change nothing and write no entry
    const before = (await entries(acme.id)).length;
    expect((await patch(self.cookie, self.membershipId, { notifyNewVersion: false })).statusCode).toBe(200);
    expect(await entries(acme.id)).toHaveLength(before);
  });

  it("lets the team's roles change a member's flags", async () => {
    const target = await member('client', acme.id, 'technicalContact');
    const callers = [
      (await signedIn(app, 'admin')).cookie,
      (await signedIn(app, 'supportEngineer')).cookie,
      (await member('client', acme.id, 'businessOwner')).cookie,
      (await member('accountExecutive', acme.id, 'accountExecutive')).cookie,
    ];
    for (const [i, cookie] of callers.entries()) {
      const value = i % 2 === 1;
      const response = await patch(cookie, target.membershipId, { notifyEmailError: value });
      expect(response.statusCode).toBe(200);
      expect((await flags(target.membershipId)).notifyEmailError).toBe(value ? 1 : 0);
    }
  });

  it("writes an account executive's own change to each customer they are account executive of", async () => {
    const executive = await createUser(app.ctx.db, { type: 'accountExecutive' });
    const other = await createCustomer(app.ctx.db, { name: 'Initech' });
    const first = await addMembership(app.ctx.db, executive.id, acme.id, 'accountExecutive');
    const second = await addMembership(app.ctx.db, executive.id, other.id, 'accountExecutive');
    const outsider = await addMembership(app.ctx.db, executive.id, globex.id, 'accountExecutive', 'disabled');
    const cookie = await login(app, executive.email);
    const response = await patch(cookie, first.id, { notifyNewVersion: false, notifyEmailError: false });
    expect(response.statusCode).toBe(200);
    expect(await flags(first.id)).toEqual({ notifyNewVersion: 0, notifyEmailError: 0 });
    expect(await flags(second.id)).toEqual({ notifyNewVersion: 0, notifyEmailError: 0 });
    expect(await flags(outsider.id)).toEqual({ notifyNewVersion: 1, notifyEmailError: 1 });
    expect((await entries(other.id)).map((e) => e.actorEmail)).toEqual([executive.email]);
    // an admin changing the account executive's flags in one customer changes that customer only
    const adminCookie = (await signedIn(app, 'admin')).cookie;
    expect((await patch(adminCookie, second.id, { notifyNewVersion: true })).statusCode).toBe(200);
    expect((await flags(first.id)).notifyNewVersion).toBe(0);
  });
});

describe('GET /api/members/mine', () => {
  it('answers 401 to anonymous callers and 400 to a bad page', async () => {
    expect((await mine(null)).statusCode).toBe(401);
    const { cookie } = await signedIn(app, 'client');
    expect((await mine(cookie, '?pageLength=0')).statusCode).toBe(400);
  });

  it("gives the caller's enabled memberships with their flags, by customer name, paged", async () => {
    const user = await createUser(app.ctx.db, { type: 'client' });
    await addMembership(app.ctx.db, user.id, globex.id, 'technicalContact');
    await addMembership(app.ctx.db, user.id, acme.id, 'businessOwner');
    const zed = await createCustomer(app.ctx.db, { name: 'Zed' });
    await addMembership(app.ctx.db, user.id, zed.id, 'businessOwner', 'disabled');
    const cookie = await login(app, user.email);
    const body = (await mine(cookie, '?pageLength=1')).json();
    expect(body).toMatchObject({ offset: 0, total: 2, totalCapped: false });
    expect(body.data).toEqual([
      {
        membershipId: expect.any(Number),
        customerId: acme.id,
        customerName: 'Acme',
        role: 'businessOwner',
        settings: expect.objectContaining({ notifyNewVersion: true }),
      },
    ]);
    expect(
      (await mine(cookie, '?pageOffset=1')).json().data.map((m: { customerName: string }) => m.customerName),
    ).toEqual(['Globex']);
    const staff = await signedIn(app, 'admin');
    expect((await mine(staff.cookie)).json()).toEqual({ data: [], offset: 0, total: 0, totalCapped: false });
  });
});
