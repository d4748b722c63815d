import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createInvitation, signedIn } from '../../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../../test/harness';
import { withText } from '../../test/outbox';

/**
 * Spec section 3's invitation carries `key` and `invitationLink`; spec section 6 gives copying the
 * link to admins alone, and section 4 copies no expired invitation (decision 087). So every answer
 * that holds an invitation carries both to an admin while the link works, and to nobody else.
 */
let t: TestApp;
let customer: { id: number };
type Caller = Awaited<ReturnType<typeof signedIn>>;
let admin: Caller;
let support: Caller;
let executive: Caller;
let owner: Caller;

beforeAll(async () => {
  t = await createTestApp();
  customer = await createCustomer(t.app.ctx.db, { name: 'Invitation links' });
  admin = await signedIn(t.app, 'admin');
  support = await signedIn(t.app, 'supportEngineer');
  executive = await signedIn(t.app, 'accountExecutive', { id: customer.id, role: 'accountExecutive' });
  owner = await signedIn(t.app, 'client', { id: customer.id, role: 'businessOwner' });
});
afterAll(async () => t?.close());

type Listed = { id: number; key?: string; invitationLink?: string; can: { copyLink: boolean } };
const get = (cookie: string, url: string) => request(t.app, cookie, { method: 'GET', url });
const rowOf = async (cookie: string, url: string, id: number): Promise<Listed | undefined> => {
  const response = await get(cookie, url);
  expect(response.statusCode).toBe(200);
  const data: Listed[] = url.includes('/page') ? response.json().invitations.data : response.json().data;
  return data.find((row) => row.id === id);
};
const mailsTo = (email: string) =>
  t.app.ctx.db
    .selectFrom('mailOutbox')
    .selectAll()
    .where('toAddress', '=', email)
    .orderBy('id', 'desc')
    .execute()
    .then((rows) => rows.map(withText(t.app.ctx)));
const mailedLink = async (email: string) => {
  const [mail] = await mailsTo(email);
  return mail.textBody.match(new RegExp(`${BASE_URL}/(en|fr)/invitation/[A-Za-z0-9_-]+`))?.[0];
};

describe("an invitation's key and link in the answers", () => {
  it('reach an admin in the customer list, the list across customers and the customer page', async () => {
    const sealed = await createInvitation(t.app.ctx.db, customer.id, {
      sealWith: t.config.sessionSecret,
      locale: 'fr',
    });
    const expected = { key: sealed.key, invitationLink: `${BASE_URL}/fr/invitation/${sealed.key}` };
    for (const url of [
      `/api/invitations?customerId=${customer.id}`,
      '/api/invitations?pageLength=100',
      `/api/customers/${customer.id}/page`,
    ]) {
      expect(await rowOf(admin.cookie, url, sealed.id), url).toMatchObject({ ...expected, can: { copyLink: true } });
    }
  });

  it('never reach a support engineer, an account executive or a project manager', async () => {
    const sealed = await createInvitation(t.app.ctx.db, customer.id, { sealWith: t.config.sessionSecret });
    for (const caller of [support, executive, owner]) {
      for (const url of [`/api/invitations?customerId=${customer.id}`, '/api/invitations?pageLength=100']) {
        const row = await rowOf(caller.cookie, url, sealed.id);
        expect(row, url).toBeDefined();
        expect(row).not.toHaveProperty('key');
        expect(row).not.toHaveProperty('invitationLink');
        expect(row!.can.copyLink).toBe(false);
      }
    }
  });

  it('are left out for an expired invitation and one whose key no secret opens', async () => {
    const expired = await createInvitation(t.app.ctx.db, customer.id, {
      sealWith: t.config.sessionSecret,
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const otherSecret = await createInvitation(t.app.ctx.db, customer.id, {
      sealWith: 'another-secret-of-32-characters-x',
    });
    const notSealed = await createInvitation(t.app.ctx.db, customer.id);
    for (const { id } of [expired, otherSecret, notSealed]) {
      const row = await rowOf(admin.cookie, `/api/invitations?customerId=${customer.id}`, id);
      expect(row).toBeDefined();
      expect(row).not.toHaveProperty('key');
      expect(row).not.toHaveProperty('invitationLink');
    }
  });

  it('come back from inviting and resending to an admin, the link that was mailed; to nobody else', async () => {
    const invite = (cookie: string, invitedEmail: string) =>
      request(t.app, cookie, {
        method: 'POST',
        url: '/api/invitations',
        payload: { invitedEmail, invitedFullName: 'Linked Person', targetCustomer: customer.id },
      });
    const byAdmin = await invite(admin.cookie, 'linked-admin@example.com');
    expect(byAdmin.statusCode).toBe(201);
    expect(byAdmin.json().invitationLink).toBe(await mailedLink('linked-admin@example.com'));
    expect(byAdmin.json().invitationLink).toBe(`${BASE_URL}/en/invitation/${byAdmin.json().key}`);

    const byOwner = await invite(owner.cookie, 'linked-owner@example.com');
    expect(byOwner.statusCode).toBe(201);
    expect(byOwner.json()).not.toHaveProperty('key');
    expect(byOwner.json()).not.toHaveProperty('invitationLink');
    const resentByOwner = await request(t.app, owner.cookie, {
      method: 'POST',
      url: `/api/invitations/${byOwner.json().id}/resend`,
    });
    expect(resentByOwner.json()).not.toHaveProperty('invitationLink');

    const resent = await request(t.app, admin.cookie, {
      method: 'POST',
      url: `/api/invitations/${byAdmin.json().id}/resend`,
    });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().key).not.toBe(byAdmin.json().key);
    const mails = await mailsTo('linked-admin@example.com');
    expect(mails[0].textBody).toContain(resent.json().invitationLink);
    // the listed link is the one just sent, and the link route agrees
    expect(await rowOf(admin.cookie, `/api/invitations?customerId=${customer.id}`, resent.json().id)).toMatchObject({
      invitationLink: resent.json().invitationLink,
    });
    const link = await get(admin.cookie, `/api/invitations/${resent.json().id}/link`);
    expect(link.json().invitationLink).toBe(resent.json().invitationLink);
  });
});
