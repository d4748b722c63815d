import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMembership, createCustomer, createUser, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';

let t: TestApp;
let customerA: { id: number };
let customerB: { id: number };
let owner: Awaited<ReturnType<typeof signedIn>>;
let technical: Awaited<ReturnType<typeof signedIn>>;
let memberOfA: { id: number; email: string; membershipId: number };
let memberOfB: { membershipId: number };

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  customerA = await createCustomer(db, { name: 'Members A' });
  customerB = await createCustomer(db, { name: 'Members B' });
  owner = await signedIn(t.app, 'client', { id: customerA.id, role: 'businessOwner' });
  technical = await signedIn(t.app, 'client', { id: customerA.id, role: 'technicalContact' });
  const user = await createUser(db, { type: 'client', fullName: 'Alice Member' });
  memberOfA = { ...user, membershipId: (await addMembership(db, user.id, customerA.id, 'technicalContact')).id };
  const other = await createUser(db, { type: 'client', fullName: 'Bob Elsewhere' });
  memberOfB = { membershipId: (await addMembership(db, other.id, customerB.id, 'technicalContact')).id };
});
afterAll(async () => t?.close());

const list = (cookie: string | null, customerId: number | string) =>
  request(t.app, cookie, { method: 'GET', url: `/api/customers/${customerId}/members` });
const setStatus = (cookie: string | null, id: number | string, payload: unknown) =>
  request(t.app, cookie, { method: 'PATCH', url: `/api/members/${id}/status`, payload: payload as object });

const auditOf = (customerId: number) =>
  t.app.ctx.db
    .selectFrom('auditLog')
    .selectAll()
    .where('customerId', '=', customerId)
    .where('action', '=', 'updateMemberStatus')
    .orderBy('id')
    .execute();

describe('GET /api/customers/{id}/members', () => {
  it('needs a session (401), a valid id (400), a role there (404) that sees the team (403)', async () => {
    expect((await list(null, customerA.id)).statusCode).toBe(401);
    expect((await list(owner.cookie, 'abc')).statusCode).toBe(400);
    expect((await list(owner.cookie, customerB.id)).statusCode).toBe(404);
    expect((await list(technical.cookie, customerA.id)).statusCode).toBe(403);
  });

  it('lists every member with full name, e-mail, role, status and membership id', async () => {
    const response = await list(owner.cookie, customerA.id);
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.map((m: { fullname: string; role: string }) => [m.fullname, m.role])).toEqual([
      ['Alice Member', 'technicalContact'],
      ['client user', 'businessOwner'],
      ['client user', 'technicalContact'],
    ]);
    expect(data[0]).toEqual({
      id: memberOfA.membershipId,
      userId: memberOfA.id,
      fullname: 'Alice Member',
      email: memberOfA.email,
      role: 'technicalContact',
      status: 'enabled',
      can: { changeStatus: true, editSettings: true },
    });
    // the project manager's own membership: its settings, never its status (members/policy.ts)
    expect(data.find((m: { role: string }) => m.role === 'businessOwner').can).toEqual({
      changeStatus: false,
      editSettings: true,
    });
  });
});

describe('GET /api/customers/{id}/members with pageOffset, pageLength, filter and sort', () => {
  let team: { id: number };
  let manager: Awaited<ReturnType<typeof signedIn>>;
  const page = (query: string) =>
    request(t.app, manager.cookie, { method: 'GET', url: `/api/customers/${team.id}/members${query}` });
  const names = (response: { json: () => { data: { fullname: string }[] } }) =>
    response.json().data.map((m) => m.fullname);

  beforeAll(async () => {
    const { db } = t.app.ctx;
    team = await createCustomer(db, { name: 'Large team' });
    manager = await signedIn(t.app, 'client', { id: team.id, role: 'businessOwner' });
    await db.updateTable('users').set({ fullName: 'Zed Manager' }).where('id', '=', manager.id).execute();
    // 12 more: Member 01 … Member 12, their addresses in the opposite order (z12 … z01 would sort first)
    for (let n = 1; n <= 12; n++) {
      const label = String(n).padStart(2, '0');
      const user = await createUser(db, {
        type: 'client',
        fullName: `Member ${label}`,
        email: `${String.fromCharCode(109 - n)}-member-${label}-${Date.now().toString(36)}@example.com`,
      });
      await addMembership(db, user.id, team.id, 'technicalContact');
    }
  });

  it('refuses a bad page, length or sort (400)', async () => {
    for (const query of ['?pageOffset=-1', '?pageLength=0', '?pageLength=101', '?sort=role', '?sort=name&sort=email']) {
      expect((await page(query)).statusCode, query).toBe(400);
    }
  });

  it('gives every member and the total without a page length, one page with it', async () => {
    const whole = await page('');
    expect(whole.json()).toMatchObject({ offset: 0, total: 13, totalCapped: false });
    expect(whole.json().data).toHaveLength(13);
    const second = await page('?pageOffset=10&pageLength=10');
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ offset: 10, total: 13 });
    expect(names(second)).toEqual(['Member 11', 'Member 12', 'Zed Manager']);
  });

  it('keeps the members whose name or address holds the filter, whatever the case, and counts them', async () => {
    const byName = await page('?filter=MEMBER%201&pageLength=2');
    expect(byName.json()).toMatchObject({ offset: 0, total: 3 });
    expect(names(byName)).toEqual(['Member 10', 'Member 11']);
    const byAddress = await page(`?filter=${encodeURIComponent('c-member-10')}`);
    expect(names(byAddress)).toEqual(['Member 10']);
    // % and _ are letters, not wildcards
    expect((await page('?filter=%25')).json()).toMatchObject({ data: [], total: 0 });
    expect((await page('?filter=member_0')).json()).toMatchObject({ data: [], total: 0 });
  });

  it('sorts by full name by default, by e-mail address when asked', async () => {
    expect(names(await page('?pageLength=2'))).toEqual(['Member 01', 'Member 02']);
    expect(names(await page('?pageLength=2&sort=email&filter=member'))).toEqual(['Member 12', 'Member 11']);
  });
});

describe('PATCH /api/members/{id}/status', () => {
  it('needs a session (401), valid input (400), a role in its customer (404) that manages the team (403)', async () => {
    expect((await setStatus(null, memberOfA.membershipId, { status: 'disabled' })).statusCode).toBe(401);
    expect((await setStatus(owner.cookie, 'x', { status: 'disabled' })).statusCode).toBe(400);
    expect((await setStatus(owner.cookie, memberOfA.membershipId, { status: 'gone' })).statusCode).toBe(400);
    expect((await setStatus(owner.cookie, memberOfA.membershipId, {})).statusCode).toBe(400);
    expect((await setStatus(owner.cookie, memberOfB.membershipId, { status: 'disabled' })).statusCode).toBe(404);
    expect((await setStatus(owner.cookie, 999_999, { status: 'disabled' })).statusCode).toBe(404);
    expect((await setStatus(technical.cookie, memberOfA.membershipId, { status: 'disabled' })).statusCode).toBe(403);
    const untouched = await t.app.ctx.db
      .selectFrom('memberships')
      .select('status')
      .where('id', '=', memberOfB.membershipId)
      .executeTakeFirstOrThrow();
    expect(untouched.status).toBe('enabled');
  });

  it('refuses anyone changing their own membership, with a clear message', async () => {
    const mine = await t.app.ctx.db
      .selectFrom('memberships')
      .select('id')
      .where('userId', '=', owner.id)
      .executeTakeFirstOrThrow();
    const response = await setStatus(owner.cookie, mine.id, { status: 'disabled' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({
      code: 'cannot_edit_self',
      message: 'You cannot change your own membership',
      details: [{ path: 'status', message: 'apiErrors.cannot_edit_self' }],
    });
  });

  it("refuses a project manager changing the account executive's membership", async () => {
    const executive = await createUser(t.app.ctx.db, { type: 'accountExecutive' });
    const { id } = await addMembership(t.app.ctx.db, executive.id, customerA.id, 'accountExecutive');
    const response = await setStatus(owner.cookie, id, { status: 'disabled' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('role_not_allowed');
  });

  it('disables a member, who loses access, and writes the change to the log; enables again', async () => {
    const member = await signedIn(t.app, 'client', { id: customerA.id, role: 'endUser' });
    const { id } = await t.app.ctx.db
      .selectFrom('memberships')
      .select('id')
      .where('userId', '=', member.id)
      .executeTakeFirstOrThrow();
    const page = () => request(t.app, member.cookie, { method: 'GET', url: `/api/customers/${customerA.id}` });
    expect((await page()).statusCode).toBe(200);

    const response = await setStatus(owner.cookie, id, { status: 'disabled' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id, status: 'disabled', role: 'endUser' });
    expect((await page()).statusCode).toBe(404);

    const [entry] = (await auditOf(customerA.id)).slice(-1);
    expect(entry).toMatchObject({ actorId: owner.id, actorEmail: owner.email, action: 'updateMemberStatus' });
    expect(JSON.parse(entry.data)).toEqual({
      memberFullName: 'client user',
      memberEmail: member.email,
      role: 'endUser',
      oldStatus: 'enabled',
      newStatus: 'disabled',
    });

    // the same status again changes nothing and logs nothing
    const before = (await auditOf(customerA.id)).length;
    expect((await setStatus(owner.cookie, id, { status: 'disabled' })).statusCode).toBe(200);
    expect(await auditOf(customerA.id)).toHaveLength(before);

    expect((await setStatus(owner.cookie, id, { status: 'enabled' })).json().status).toBe('enabled');
    expect((await page()).statusCode).toBe(200);
  });
});
