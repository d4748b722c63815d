import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addMembership, createCustomer, createInvitation, createUser, signedIn } from '../../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../../test/harness';
import { findInvitationByKey } from './keys';
import { withText } from '../../test/outbox';

let t: TestApp;
let customerA: { id: number };
let customerB: { id: number };
let admin: Awaited<ReturnType<typeof signedIn>>;
let owner: Awaited<ReturnType<typeof signedIn>>;
let executive: Awaited<ReturnType<typeof signedIn>>;
let executiveOfB: Awaited<ReturnType<typeof signedIn>>;
let technical: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  customerA = await createCustomer(db, { name: 'Invitations A' });
  customerB = await createCustomer(db, { name: 'Invitations B' });
  admin = await signedIn(t.app, 'admin');
  owner = await signedIn(t.app, 'client', { id: customerA.id, role: 'businessOwner' });
  executive = await signedIn(t.app, 'accountExecutive', { id: customerA.id, role: 'accountExecutive' });
  executiveOfB = await signedIn(t.app, 'accountExecutive', { id: customerB.id, role: 'accountExecutive' });
  technical = await signedIn(t.app, 'client', { id: customerA.id, role: 'technicalContact' });
});
afterAll(async () => t?.close());

let counter = 0;
const address = () => `invitee-${Date.now().toString(36)}-${counter++}@example.com`;
const invite = (cookie: string | null, payload: Record<string, unknown>) =>
  request(t.app, cookie, { method: 'POST', url: '/api/invitations', payload });
const body = (extra: Record<string, unknown> = {}) => ({
  invitedEmail: address(),
  invitedFullName: 'Ivy Invitee',
  targetCustomer: customerA.id,
  ...extra,
});
const list = (cookie: string | null, query: string) =>
  request(t.app, cookie, { method: 'GET', url: `/api/invitations${query}` });
const call = (cookie: string | null, method: 'GET' | 'POST' | 'DELETE', url: string) =>
  request(t.app, cookie, { method, url });
const outboxFor = (email: string) =>
  t.app.ctx.db
    .selectFrom('mailOutbox')
    .selectAll()
    .where('toAddress', '=', email)
    .orderBy('id')
    .execute()
    .then((rows) => rows.map(withText(t.app.ctx)));
const auditOf = (action: string) =>
  t.app.ctx.db.selectFrom('auditLog').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();
const keyIn = (text: string, locale: string) =>
  text.match(new RegExp(`${BASE_URL}/${locale}/invitation/([A-Za-z0-9_-]+)`))?.[1];

describe('POST /api/invitations', () => {
  it('needs a session (401), a customer (400), a role there (404) that manages the team (403)', async () => {
    expect((await invite(null, body())).statusCode).toBe(401);
    // the session is decided before the body is read: an anonymous caller learns nothing of the input
    const unread = await request(t.app, null, {
      method: 'POST',
      url: '/api/invitations',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(unread.statusCode).toBe(401);
    const missing = await invite(owner.cookie, { invitedEmail: address(), invitedFullName: 'No Customer' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details).toEqual([{ path: 'targetCustomer', message: 'errors.required' }]);
    expect((await invite(owner.cookie, body({ targetCustomer: 'x' }))).statusCode).toBe(400);
    expect((await invite(owner.cookie, body({ targetCustomer: customerB.id }))).statusCode).toBe(404);
    expect((await invite(executiveOfB.cookie, body())).statusCode).toBe(404);
    expect((await invite(technical.cookie, body())).statusCode).toBe(403);
  });

  it('checks the fields: e-mail, full name, role and locale (400)', async () => {
    const response = await invite(owner.cookie, body({ invitedEmail: 'not-an-email', invitedFullName: ' ' }));
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['invitedEmail', 'invitedFullName']));
    expect((await invite(owner.cookie, body({ targetRole: 'admin' }))).statusCode).toBe(400);
    expect((await invite(owner.cookie, body({ locale: 'de' }))).statusCode).toBe(400);
  });

  it('offers each inviter only the roles of spec section 6, and the locale to executives and admins', async () => {
    const refused = await invite(owner.cookie, body({ targetRole: 'accountExecutive' }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.details).toEqual([{ path: 'targetRole', message: 'apiErrors.role_not_allowed' }]);
    const locale = await invite(owner.cookie, body({ locale: 'fr' }));
    expect(locale.statusCode).toBe(403);
    expect(locale.json().error.code).toBe('locale_not_allowed');
    expect((await invite(owner.cookie, body({ targetRole: 'businessOwner' }))).statusCode).toBe(201);
    expect((await invite(executive.cookie, body({ targetRole: 'accountExecutive', locale: 'fr' }))).statusCode).toBe(
      201,
    );
  });

  it('invites as technical contact in English by default, mails the link and logs it', async () => {
    const email = address();
    const response = await invite(owner.cookie, body({ invitedEmail: email.toUpperCase() }));
    expect(response.statusCode).toBe(201);
    const invitation = response.json();
    expect(invitation).toMatchObject({
      status: 'pending',
      customerId: customerA.id,
      customerName: 'Invitations A',
      role: 'technicalContact',
      inviterFullName: 'client user',
      invitedFullName: 'Ivy Invitee',
      invitedEmail: email,
      newUser: true,
      locale: 'en',
    });
    expect(Date.parse(invitation.expiresAt) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(invitation).not.toHaveProperty('key');

    const [mail] = await outboxFor(email);
    expect(mail.template).toBe('invitation');
    expect(mail.subject).toBe('You are invited to join Invitations A on the customer portal');
    expect(mail.textBody).toContain('client user invites you to join Invitations A');
    const key = keyIn(mail.textBody, 'en');
    expect(key).toBeDefined();
    expect((await findInvitationByKey(t.app.ctx.db, key!))?.id).toBe(invitation.id);

    const [entry] = await auditOf('inviteMember');
    expect(entry).toMatchObject({ customerId: customerA.id, actorId: owner.id, actorEmail: owner.email });
    expect(JSON.parse(entry.data)).toEqual({
      invitedEmail: email,
      invitedFullName: 'Ivy Invitee',
      role: 'technicalContact',
    });
  });

  it('writes a French mail for a French invitation, and tells an existing account apart', async () => {
    const existing = await createUser(t.app.ctx.db, { type: 'client' });
    const response = await invite(admin.cookie, body({ invitedEmail: existing.email, locale: 'fr' }));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ newUser: false, locale: 'fr', inviterFullName: 'admin user' });
    const [mail] = await outboxFor(existing.email);
    expect(mail.subject).toBe('Vous êtes invité à rejoindre Invitations A sur le portail client');
    expect(mail.textBody).toContain('valable 7 jours');
    expect(keyIn(mail.textBody, 'fr')).toBeDefined();
  });

  it('refuses a member (409 on invitedEmail) and a second pending invitation for one address', async () => {
    const member = await createUser(t.app.ctx.db, { type: 'client' });
    await addMembership(t.app.ctx.db, member.id, customerA.id, 'endUser', 'disabled');
    const taken = await invite(owner.cookie, body({ invitedEmail: member.email }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({
      code: 'already_member',
      message: 'This person is already a member of this customer',
      details: [{ path: 'invitedEmail', message: 'apiErrors.already_member' }],
    });
    const email = address();
    expect((await invite(owner.cookie, body({ invitedEmail: email }))).statusCode).toBe(201);
    const again = await invite(owner.cookie, body({ invitedEmail: email.toUpperCase() }));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.details).toEqual([{ path: 'invitedEmail', message: 'apiErrors.invitation_pending' }]);
    // the same address may be invited to another customer
    expect(
      (await invite(executiveOfB.cookie, body({ invitedEmail: email, targetCustomer: customerB.id }))).statusCode,
    ).toBe(201);
  });

  it('makes exactly one invitation when two requests for one address arrive at once', async () => {
    const email = address();
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) => invite(i % 2 ? owner.cookie : admin.cookie, body({ invitedEmail: email }))),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    const rows = await t.app.ctx.db.selectFrom('invitations').select('id').where('invitedEmail', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it('leaves no invitation, mail or log entry when the transaction fails after the mail was written', async () => {
    const email = address();
    const realSend = t.app.ctx.mail.send.bind(t.app.ctx.mail);
    const send = vi.spyOn(t.app.ctx.mail, 'send').mockImplementationOnce(async (mail, trx) => {
      await realSend(mail, trx);
      throw new Error('failure after the mail');
    });
    try {
      expect((await invite(owner.cookie, body({ invitedEmail: email }))).statusCode).toBe(500);
    } finally {
      send.mockRestore();
    }
    expect(await outboxFor(email)).toHaveLength(0);
    expect(
      await t.app.ctx.db.selectFrom('invitations').select('id').where('invitedEmail', '=', email).execute(),
    ).toEqual([]);
  });
});

describe('GET /api/invitations?customerId', () => {
  it('needs a session (401), a valid customer (400), a role there (404) that sees the team (403)', async () => {
    expect((await list(null, `?customerId=${customerA.id}`)).statusCode).toBe(401);
    expect((await list(owner.cookie, '?customerId=')).statusCode).toBe(400);
    expect((await list(owner.cookie, '?customerId=abc')).statusCode).toBe(400);
    expect((await list(owner.cookie, `?customerId=${customerA.id}&customerId=${customerA.id}`)).statusCode).toBe(400);
    expect((await list(owner.cookie, `?customerId=${customerA.id}&pageLength=0`)).statusCode).toBe(400);
    expect((await list(owner.cookie, `?customerId=${customerB.id}`)).statusCode).toBe(404);
    expect((await list(executiveOfB.cookie, `?customerId=${customerA.id}`)).statusCode).toBe(404);
    expect((await list(technical.cookie, `?customerId=${customerA.id}`)).statusCode).toBe(403);
  });

  it('lists pending and expired invitations, not accepted or cancelled ones', async () => {
    const customer = await createCustomer(t.app.ctx.db, { name: 'Listed' });
    const pending = await createInvitation(t.app.ctx.db, customer.id, { inviterId: admin.id, fullName: 'Pending One' });
    const expired = await createInvitation(t.app.ctx.db, customer.id, {
      fullName: 'Expired One',
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const cancelled = await createInvitation(t.app.ctx.db, customer.id);
    await t.app.ctx.db.updateTable('invitations').set({ state: 'cancelled' }).where('id', '=', cancelled.id).execute();
    const response = await list(admin.cookie, `?customerId=${customer.id}`);
    expect(response.statusCode).toBe(200);
    const rows = response.json().data;
    expect(rows.map((r: { id: number; status: string }) => [r.id, r.status]).sort()).toEqual(
      [
        [pending.id, 'pending'],
        [expired.id, 'expired'],
      ].sort(),
    );
    expect(rows.find((r: { id: number }) => r.id === pending.id)).toMatchObject({
      customerName: 'Listed',
      inviterFullName: 'admin user',
      invitedFullName: 'Pending One',
      invitedEmail: pending.email,
      role: 'technicalContact',
      newUser: true,
    });
    expect(rows.find((r: { id: number }) => r.id === expired.id).inviterFullName).toBeNull();
  });
});

describe('GET /api/invitations?customerId with pageOffset, pageLength, filter and sort', () => {
  let customer: { id: number };
  const page = (query: string) => list(admin.cookie, `?customerId=${customer.id}${query}`);
  const names = (response: { json: () => { data: { invitedFullName: string }[] } }) =>
    response.json().data.map((i) => i.invitedFullName);

  beforeAll(async () => {
    customer = await createCustomer(t.app.ctx.db, { name: 'Many invitations' });
    // sent one after the other: Guest 12 is the newest; the addresses run the other way
    for (let n = 1; n <= 12; n++) {
      const label = String(n).padStart(2, '0');
      await createInvitation(t.app.ctx.db, customer.id, {
        fullName: `Guest ${label}`,
        email: `${String.fromCharCode(109 - n)}-guest-${label}-${Date.now().toString(36)}@example.com`,
      });
      await t.app.ctx.db
        .updateTable('invitations')
        .set({ sentAt: new Date(Date.UTC(2026, 0, n)).toISOString() })
        .where('invitedFullName', '=', `Guest ${label}`)
        .execute();
    }
  });

  it('refuses a bad sort (400)', async () => {
    expect((await page('&sort=role')).statusCode).toBe(400);
  });

  it('pages the newest first with the total, filters by name or address, sorts by name or address', async () => {
    const first = await page('&pageLength=10');
    expect(first.json()).toMatchObject({ offset: 0, total: 12, totalCapped: false });
    expect(names(first)[0]).toBe('Guest 12');
    const second = await page('&pageOffset=10&pageLength=10');
    expect(names(second)).toEqual(['Guest 02', 'Guest 01']);
    const filtered = await page('&filter=GUEST%201&sort=name');
    expect(filtered.json()).toMatchObject({ total: 3 });
    expect(names(filtered)).toEqual(['Guest 10', 'Guest 11', 'Guest 12']);
    expect(names(await page(`&filter=${encodeURIComponent('e-guest-08')}`))).toEqual(['Guest 08']);
    expect(names(await page('&sort=email&pageLength=2'))).toEqual(['Guest 12', 'Guest 11']);
  });
});

describe('GET /api/invitations without customerId', () => {
  const ids = (response: { json: () => { data: { id: number }[] } }) => response.json().data.map((r) => r.id);

  it('needs a session (401) and valid paging (400)', async () => {
    expect((await list(null, '')).statusCode).toBe(401);
    expect((await list(null, '?pageLength=abc')).statusCode).toBe(401);
    expect((await list(owner.cookie, '?pageLength=abc')).statusCode).toBe(400);
    expect((await list(owner.cookie, '?pageLength=101')).statusCode).toBe(400);
    expect((await list(owner.cookie, '?pageOffset=-1')).statusCode).toBe(400);
  });

  it("lists the invitations of the customers where the caller sees the team, and nobody else's", async () => {
    const { db } = t.app.ctx;
    const [mine, alsoMine, onlyTechnical, disabled, elsewhere] = await Promise.all(
      ['Own 1', 'Own 2', 'Technical there', 'Disabled there', 'Elsewhere'].map((name) =>
        createCustomer(db, { name: `Across ${name}` }),
      ),
    );
    const invitationTo = async (customer: { id: number }) => (await createInvitation(db, customer.id)).id;
    const inMine = [await invitationTo(mine), await invitationTo(mine), await invitationTo(alsoMine)];
    const outside = [await invitationTo(onlyTechnical), await invitationTo(disabled), await invitationTo(elsewhere)];

    const businessOwner = await signedIn(t.app, 'client', { id: mine.id, role: 'businessOwner' });
    await addMembership(db, businessOwner.id, alsoMine.id, 'businessOwner');
    await addMembership(db, businessOwner.id, onlyTechnical.id, 'technicalContact');
    await addMembership(db, businessOwner.id, disabled.id, 'businessOwner', 'disabled');
    const ofOwner = await list(businessOwner.cookie, '?pageLength=100');
    expect(ofOwner.statusCode).toBe(200);
    expect(ids(ofOwner).sort()).toEqual([...inMine].sort());
    expect(ofOwner.json()).toMatchObject({ offset: 0, total: 3, totalCapped: false });

    const accountExecutive = await signedIn(t.app, 'accountExecutive', { id: mine.id, role: 'accountExecutive' });
    await addMembership(db, accountExecutive.id, alsoMine.id, 'accountExecutive');
    expect(ids(await list(accountExecutive.cookie, '')).sort()).toEqual([...inMine].sort());

    // every customer's for admins and support engineers; none for roles that never see a team
    const everything = await list(admin.cookie, '?pageLength=100');
    expect(ids(everything)).toEqual(expect.arrayContaining([...inMine, ...outside]));
    const support = await signedIn(t.app, 'supportEngineer');
    expect(ids(await list(support.cookie, '?pageLength=100'))).toEqual(expect.arrayContaining([...inMine, ...outside]));
    const productManager = await signedIn(t.app, 'productManager');
    expect((await list(productManager.cookie, '')).json()).toEqual({
      data: [],
      offset: 0,
      total: 0,
      totalCapped: false,
    });
    const technicalOnly = await signedIn(t.app, 'client', { id: onlyTechnical.id, role: 'technicalContact' });
    expect((await list(technicalOnly.cookie, '')).json()).toEqual({
      data: [],
      offset: 0,
      total: 0,
      totalCapped: false,
    });
  });

  it('pages the list, newest first, ten at a time unless told otherwise', async () => {
    const { db } = t.app.ctx;
    const customer = await createCustomer(db, { name: 'Across many' });
    const manager = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
    const created: number[] = [];
    for (let i = 0; i < 12; i++) {
      const sentAt = new Date(Date.UTC(2026, 0, 1 + i)).toISOString();
      created.push((await createInvitation(db, customer.id, { fullName: `Many ${i}` })).id);
      await db.updateTable('invitations').set({ sentAt }).where('id', '=', created[i]).execute();
    }
    const newestFirst = [...created].reverse();
    const first = await list(manager.cookie, '');
    expect(first.json()).toMatchObject({ offset: 0, total: 12, totalCapped: false });
    expect(ids(first)).toEqual(newestFirst.slice(0, 10));
    const second = await list(manager.cookie, '?pageOffset=10');
    expect(second.json()).toMatchObject({ offset: 10, total: 12 });
    expect(ids(second)).toEqual(newestFirst.slice(10));
    expect(ids(await list(manager.cookie, '?pageOffset=3&pageLength=2'))).toEqual(newestFirst.slice(3, 5));
    // one customer's list is whole unless a page length is given
    expect(ids(await list(manager.cookie, `?customerId=${customer.id}`))).toEqual(newestFirst);
    expect(ids(await list(manager.cookie, `?customerId=${customer.id}&pageOffset=11`))).toEqual(newestFirst.slice(11));
    expect(ids(await list(manager.cookie, `?customerId=${customer.id}&pageLength=2`))).toEqual(newestFirst.slice(0, 2));
  });
});

describe('GET /api/invitations/{id}/link', () => {
  it('needs a session (401), a valid id (400), a role there (404), an admin (403)', async () => {
    const { id } = await createInvitation(t.app.ctx.db, customerA.id, { sealWith: t.config.sessionSecret });
    const ofB = await createInvitation(t.app.ctx.db, customerB.id, { sealWith: t.config.sessionSecret });
    expect((await call(null, 'GET', `/api/invitations/${id}/link`)).statusCode).toBe(401);
    expect((await call(admin.cookie, 'GET', '/api/invitations/0/link')).statusCode).toBe(400);
    expect((await call(owner.cookie, 'GET', `/api/invitations/${ofB.id}/link`)).statusCode).toBe(404);
    expect((await call(admin.cookie, 'GET', '/api/invitations/999999/link')).statusCode).toBe(404);
    expect((await call(owner.cookie, 'GET', `/api/invitations/${id}/link`)).statusCode).toBe(403);
    expect((await call(executive.cookie, 'GET', `/api/invitations/${id}/link`)).statusCode).toBe(403);
  });

  it('gives an admin the very link that was mailed, never for an expired invitation', async () => {
    const email = address();
    const created = (await invite(executive.cookie, body({ invitedEmail: email, locale: 'fr' }))).json();
    const response = await call(admin.cookie, 'GET', `/api/invitations/${created.id}/link`);
    expect(response.statusCode).toBe(200);
    const [mail] = await outboxFor(email);
    expect(response.json().invitationLink).toBe(`${BASE_URL}/fr/invitation/${keyIn(mail.textBody, 'fr')}`);

    await t.app.ctx.db
      .updateTable('invitations')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', created.id)
      .execute();
    const expired = await call(admin.cookie, 'GET', `/api/invitations/${created.id}/link`);
    expect(expired.statusCode).toBe(409);
    expect(expired.json().error.code).toBe('invitation_expired');

    const unsealed = await createInvitation(t.app.ctx.db, customerA.id);
    const none = await call(admin.cookie, 'GET', `/api/invitations/${unsealed.id}/link`);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.code).toBe('link_unavailable');
  });
});

describe('POST /api/invitations/{id}/resend', () => {
  it('needs a session (401), a valid id (400), a role in its customer (404) that manages the team (403)', async () => {
    const { id } = await createInvitation(t.app.ctx.db, customerA.id);
    const ofB = await createInvitation(t.app.ctx.db, customerB.id);
    expect((await call(null, 'POST', `/api/invitations/${id}/resend`)).statusCode).toBe(401);
    expect((await call(owner.cookie, 'POST', '/api/invitations/x/resend')).statusCode).toBe(400);
    expect((await call(owner.cookie, 'POST', `/api/invitations/${ofB.id}/resend`)).statusCode).toBe(404);
    expect((await call(executive.cookie, 'POST', `/api/invitations/${ofB.id}/resend`)).statusCode).toBe(404);
    expect((await call(technical.cookie, 'POST', `/api/invitations/${id}/resend`)).statusCode).toBe(403);
  });

  it('gives an expired invitation a new key (the old link dies), 7 more days and a new mail', async () => {
    const old = await createInvitation(t.app.ctx.db, customerA.id, {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
      locale: 'fr',
    });
    const response = await call(owner.cookie, 'POST', `/api/invitations/${old.id}/resend`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: old.id, status: 'pending' });
    expect(Date.parse(response.json().expiresAt) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(await findInvitationByKey(t.app.ctx.db, old.key)).toBeUndefined();
    const [mail] = await outboxFor(old.email);
    const key = keyIn(mail.textBody, 'fr')!;
    expect((await findInvitationByKey(t.app.ctx.db, key))?.id).toBe(old.id);
    const [entry] = await auditOf('resendInvitation');
    expect(JSON.parse(entry.data)).toMatchObject({ invitedEmail: old.email, wasExpired: true });
  });

  it('does not resend a cancelled invitation (404)', async () => {
    const { id } = await createInvitation(t.app.ctx.db, customerA.id);
    expect((await call(owner.cookie, 'DELETE', `/api/invitations/${id}`)).statusCode).toBe(200);
    expect((await call(owner.cookie, 'POST', `/api/invitations/${id}/resend`)).statusCode).toBe(404);
  });
});

describe('DELETE /api/invitations/{id}', () => {
  it('needs a session (401), a valid id (400), a role in its customer (404) that manages the team (403)', async () => {
    const { id } = await createInvitation(t.app.ctx.db, customerA.id);
    const ofB = await createInvitation(t.app.ctx.db, customerB.id);
    expect((await call(null, 'DELETE', `/api/invitations/${id}`)).statusCode).toBe(401);
    expect((await call(owner.cookie, 'DELETE', '/api/invitations/-1')).statusCode).toBe(400);
    expect((await call(owner.cookie, 'DELETE', `/api/invitations/${ofB.id}`)).statusCode).toBe(404);
    expect((await call(technical.cookie, 'DELETE', `/api/invitations/${id}`)).statusCode).toBe(403);
    const state = await t.app.ctx.db
      .selectFrom('invitations')
      .select('state')
      .where('id', '=', ofB.id)
      .executeTakeFirst();
    expect(state?.state).toBe('pending');
  });

  it('revokes the invitation, keeps the row, logs it; the link then names a cancelled invitation', async () => {
    const invitation = await createInvitation(t.app.ctx.db, customerA.id, { fullName: 'Cancelled One' });
    const response = await call(owner.cookie, 'DELETE', `/api/invitations/${invitation.id}`);
    expect(response.statusCode).toBe(200);
    expect((await findInvitationByKey(t.app.ctx.db, invitation.key))?.state).toBe('cancelled');
    const rows = (await list(owner.cookie, `?customerId=${customerA.id}`)).json().data;
    expect(rows.map((r: { id: number }) => r.id)).not.toContain(invitation.id);
    const [entry] = await auditOf('cancelInvitation');
    expect(JSON.parse(entry.data)).toEqual({
      invitedEmail: invitation.email,
      invitedFullName: 'Cancelled One',
      role: 'technicalContact',
    });
    expect((await call(owner.cookie, 'DELETE', `/api/invitations/${invitation.id}`)).statusCode).toBe(404);
  });
});
