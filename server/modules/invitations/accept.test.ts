import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../common/constants';
import type { MemberRole } from '../../../common/roles';
import { nextIp } from '../auth/test-helpers';
import {
  addMembership,
  createCustomer,
  createInvitation,
  createUser,
  login,
  TEST_PASSWORD,
} from '../../test/factories';
import { createTestApp, request, sessionCookieOf, type TestApp } from '../../test/harness';
import { withText } from '../../test/outbox';

let t: TestApp;
let app: FastifyInstance;
let inviter: { id: number; email: string };

const NEW_PASSWORD = 'Joining-Password-42!';

beforeAll(async () => {
  // The limit has its own test below; the others must not depend on how fast they run.
  t = await createTestApp({ RATE_LIMIT_INVITATION_PER_MINUTE: '0' });
  app = t.app;
  inviter = await createUser(app.ctx.db, { type: 'client', fullName: 'Ines Inviter' });
});
afterAll(async () => t?.close());

/** A fresh customer (named `name`) with a pending invitation from the inviter. */
async function invitation(
  props: { email?: string; role?: MemberRole; expiresAt?: string; name?: string } = {},
): Promise<{ key: string; id: number; email: string; customerId: number }> {
  const customer = await createCustomer(app.ctx.db, props.name ? { name: props.name } : {});
  await addMembership(app.ctx.db, inviter.id, customer.id, 'businessOwner');
  const created = await createInvitation(app.ctx.db, customer.id, { inviterId: inviter.id, ...props });
  return { ...created, customerId: customer.id };
}

const getInvitation = (key: string, cookie: string | null = null) =>
  request(app, cookie, { method: 'GET', url: `/api/invitations/${encodeURIComponent(key)}` });
const acceptNew = (key: string, payload: object, cookie: string | null = null) =>
  request(app, cookie, { method: 'POST', url: `/api/invitations/${encodeURIComponent(key)}/new`, payload });
const acceptExisting = (key: string, cookie: string | null) =>
  request(app, cookie, { method: 'POST', url: `/api/invitations/${encodeURIComponent(key)}/existing` });

async function membershipsOf(email: string, customerId: number) {
  return app.ctx.db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.userId')
    .select(['memberships.role', 'memberships.status', 'users.type', 'users.fullName', 'users.preferredLocale'])
    .where('memberships.customerId', '=', customerId)
    .where('users.email', '=', email)
    .execute();
}

async function stateOf(invitationId: number) {
  return app.ctx.db
    .selectFrom('invitations')
    .select(['state', 'acceptedAt', 'acceptedUserId'])
    .where('id', '=', invitationId)
    .executeTakeFirstOrThrow();
}

async function auditOf(customerId: number) {
  return app.ctx.db
    .selectFrom('auditLog')
    .select(['action', 'actorEmail', 'data'])
    .where('customerId', '=', customerId)
    .execute();
}

async function expire(invitationId: number) {
  await app.ctx.db
    .updateTable('invitations')
    .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', invitationId)
    .execute();
}

async function setState(invitationId: number, state: 'cancelled' | 'accepted') {
  await app.ctx.db.updateTable('invitations').set({ state }).where('id', '=', invitationId).execute();
}

describe('GET /api/invitations/:key', () => {
  it('answers 400 to a key that cannot be one', async () => {
    const response = await getInvitation('not a key!');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('validation_error');
  });

  it('answers 404 invitation_invalid to an unknown key', async () => {
    const response = await getInvitation('no-such-key');
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatchObject({
      code: 'invitation_invalid',
      message: 'This invitation link is invalid.',
    });
  });

  it('answers 410 to a cancelled or an accepted invitation, each with its reason', async () => {
    const gone = await invitation();
    await setState(gone.id, 'cancelled');
    expect((await getInvitation(gone.key)).json().error.code).toBe('invitation_cancelled');
    const used = await invitation();
    await setState(used.id, 'accepted');
    const response = await getInvitation(used.key);
    expect(response.statusCode).toBe(410);
    expect(response.json().error.code).toBe('invitation_accepted');
  });

  it('shows a visitor the customer, the role, the inviter, the invited name and whether an account is needed', async () => {
    const invited = await invitation({ role: 'businessOwner', name: 'Preview Corp' });
    const response = await getInvitation(invited.key);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      customerName: 'Preview Corp',
      role: 'businessOwner',
      inviterFullName: 'Ines Inviter',
      invitedFullName: 'Invited Person',
      newUser: true,
      status: 'pending',
    });
  });

  it('says newUser false when the address has an account, whatever its case', async () => {
    const user = await createUser(app.ctx.db, { type: 'client' });
    const invited = await invitation({ email: user.email.toUpperCase() });
    expect((await getInvitation(invited.key)).json().newUser).toBe(false);
  });

  it('answers an expired invitation with status expired', async () => {
    const invited = await invitation();
    await expire(invited.id);
    const response = await getInvitation(invited.key);
    expect(response.statusCode).toBe(200);
    expect(response.json().status).toBe('expired');
  });
});

describe('POST /api/invitations/:key/new', () => {
  const valid = { fullName: 'Nora New', password: NEW_PASSWORD };

  it('answers 400 with the field and the password rule that fails', async () => {
    const invited = await invitation();
    const short = await acceptNew(invited.key, { fullName: 'Nora', password: 'Short-1!' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details).toContainEqual({ path: 'password', message: 'password.error.too_short' });
    const noName = await acceptNew(invited.key, { fullName: '   ', password: NEW_PASSWORD });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error.details).toContainEqual({ path: 'fullName', message: 'errors.required' });
    expect(await membershipsOf(invited.email, invited.customerId)).toEqual([]);
  });

  it('refuses an unknown, expired, cancelled or accepted invitation with its reason', async () => {
    expect((await acceptNew('unknown-key', valid)).statusCode).toBe(404);
    const old = await invitation();
    await expire(old.id);
    const expired = await acceptNew(old.key, valid);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toMatchObject({
      code: 'invitation_expired',
      message: 'This invitation has expired. Ask the person who invited you to send it again.',
    });
    const gone = await invitation();
    await setState(gone.id, 'cancelled');
    expect((await acceptNew(gone.key, valid)).json().error.code).toBe('invitation_cancelled');
    expect(await membershipsOf(old.email, old.customerId)).toEqual([]);
  });

  it('answers 409 when the address already has an account: it joins with /existing', async () => {
    const user = await createUser(app.ctx.db, { type: 'client' });
    const invited = await invitation({ email: user.email });
    const response = await acceptNew(invited.key, valid);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('invitation_account_exists');
    expect((await stateOf(invited.id)).state).toBe('pending');
  });

  it('creates the account in the invitation language, makes it a member, signs it in and logs who invited', async () => {
    const invited = await invitation({ role: 'technicalContact' });
    await app.ctx.db.updateTable('invitations').set({ locale: 'fr' }).where('id', '=', invited.id).execute();
    const response = await acceptNew(invited.key, valid);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ customerId: invited.customerId });

    expect(await membershipsOf(invited.email, invited.customerId)).toEqual([
      { role: 'technicalContact', status: 'enabled', type: 'client', fullName: 'Nora New', preferredLocale: 'fr' },
    ]);
    const state = await stateOf(invited.id);
    expect(state.state).toBe('accepted');
    expect(state.acceptedAt).not.toBeNull();
    // signed in: the profile lists the customer
    const me = await request(app, sessionCookieOf(response), { method: 'GET', url: '/api/auth/me' });
    expect(me.json()).toMatchObject({ email: invited.email, accounts: [{ id: invited.customerId }] });
    // and the password works
    expect((await login(app, invited.email, NEW_PASSWORD)).startsWith(SESSION_COOKIE)).toBe(true);

    const entries = await auditOf(invited.customerId);
    expect(entries).toHaveLength(1);
    expect(entries[0].action).toBe('acceptInvitation');
    expect(entries[0].actorEmail).toBe(invited.email);
    expect(JSON.parse(entries[0].data)).toEqual({
      invitationFrom: inviter.email,
      inviterFullName: 'Ines Inviter',
      memberEmail: invited.email,
      memberFullName: 'Nora New',
      role: 'technicalContact',
    });
  });

  it('makes an account executive invited by staff a staff account', async () => {
    const invited = await invitation({ role: 'accountExecutive' });
    expect((await acceptNew(invited.key, valid)).statusCode).toBe(200);
    expect((await membershipsOf(invited.email, invited.customerId))[0].type).toBe('accountExecutive');
  });

  it('works once: the same link again is refused as accepted', async () => {
    const invited = await invitation();
    expect((await acceptNew(invited.key, valid)).statusCode).toBe(200);
    const again = await acceptNew(invited.key, valid);
    expect(again.statusCode).toBe(410);
    expect(again.json().error.code).toBe('invitation_accepted');
  });
});

describe('POST /api/invitations/:key/existing', () => {
  it('answers 401 without a session', async () => {
    const invited = await invitation();
    expect((await acceptExisting(invited.key, null)).statusCode).toBe(401);
  });

  it('answers 400 to a key that cannot be one', async () => {
    const user = await createUser(app.ctx.db, { type: 'client' });
    const response = await acceptExisting('not a key!', await login(app, user.email));
    expect(response.statusCode).toBe(400);
  });

  it('answers 403 with a clear message when the invitation was sent to another address', async () => {
    const invited = await invitation();
    const stranger = await createUser(app.ctx.db, { type: 'client' });
    const response = await acceptExisting(invited.key, await login(app, stranger.email));
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toMatchObject({
      code: 'invitation_other_email',
      message: expect.stringContaining('another e-mail address'),
    });
    expect((await stateOf(invited.id)).state).toBe('pending');
    expect(await membershipsOf(stranger.email, invited.customerId)).toEqual([]);
  });

  it('answers 403 when the account cannot hold the offered role', async () => {
    const client = await createUser(app.ctx.db, { type: 'client' });
    const invited = await invitation({ email: client.email, role: 'accountExecutive' });
    const response = await acceptExisting(invited.key, await login(app, client.email));
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('invitation_role_mismatch');
  });

  it('refuses an unknown, expired or cancelled invitation with its reason', async () => {
    const user = await createUser(app.ctx.db, { type: 'client' });
    const cookie = await login(app, user.email);
    expect((await acceptExisting('unknown-key', cookie)).statusCode).toBe(404);
    const old = await invitation({ email: user.email });
    await expire(old.id);
    expect((await acceptExisting(old.key, cookie)).json().error.code).toBe('invitation_expired');
    await app.ctx.db.deleteFrom('invitations').where('id', '=', old.id).execute();
    const gone = await invitation({ email: user.email });
    await setState(gone.id, 'cancelled');
    expect((await acceptExisting(gone.key, cookie)).json().error.code).toBe('invitation_cancelled');
  });

  it('answers 409 to someone who is already a member, and leaves the invitation pending', async () => {
    const user = await createUser(app.ctx.db, { type: 'client' });
    const invited = await invitation({ email: user.email });
    await addMembership(app.ctx.db, user.id, invited.customerId, 'endUser', 'disabled');
    const response = await acceptExisting(invited.key, await login(app, user.email));
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('invitation_already_member');
    expect((await stateOf(invited.id)).state).toBe('pending');
    expect(await membershipsOf(user.email, invited.customerId)).toMatchObject([{ status: 'disabled' }]);
  });

  it('joins the signed-in user (address in any case) and logs it', async () => {
    const user = await createUser(app.ctx.db, { type: 'client', fullName: 'Erin Existing' });
    const invited = await invitation({ email: user.email.toUpperCase(), role: 'businessOwner' });
    const cookie = await login(app, user.email);
    const response = await acceptExisting(invited.key, cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ customerId: invited.customerId });
    expect(await membershipsOf(user.email, invited.customerId)).toMatchObject([
      { role: 'businessOwner', status: 'enabled' },
    ]);
    expect(await stateOf(invited.id)).toMatchObject({ state: 'accepted', acceptedUserId: user.id });
    const [entry] = await auditOf(invited.customerId);
    expect(entry.action).toBe('acceptInvitation');
    expect(JSON.parse(entry.data)).toMatchObject({ invitationFrom: inviter.email, memberEmail: user.email });
    // the session goes on: the customer is now the user's
    const me = await request(app, cookie, { method: 'GET', url: '/api/auth/me' });
    expect(me.json().accounts.map((a: { id: number }) => a.id)).toContain(invited.customerId);
  });
});

describe('the team is told who joined', () => {
  async function outboxFor(email: string) {
    return app.ctx.db
      .selectFrom('mailOutbox')
      .select(['template', 'subject', 'bodySealed'])
      .where('toAddress', '=', email)
      .execute()
      .then((rows) => rows.map(withText(app.ctx)));
  }

  it("mails the customer's enabled managers who asked for it, in their language, and nobody else", async () => {
    const invited = await invitation({ name: 'Notice Corp' });
    const { db } = app.ctx;
    const manager = (fullName: string, preferredLocale: 'en' | 'fr' = 'en') =>
      createUser(db, { type: 'client', fullName, preferredLocale });
    const owner = await manager('Olga Owner', 'fr');
    await addMembership(db, owner.id, invited.customerId, 'businessOwner');
    const quiet = await manager('Quentin Quiet');
    const quietMembership = await addMembership(db, quiet.id, invited.customerId, 'businessOwner');
    await db
      .updateTable('memberships')
      .set({ notifyInvitationAccepted: 0 })
      .where('id', '=', quietMembership.id)
      .execute();
    const disabled = await manager('Dora Disabled');
    await addMembership(db, disabled.id, invited.customerId, 'businessOwner', 'disabled');
    const tech = await manager('Tim Tech');
    await addMembership(db, tech.id, invited.customerId, 'technicalContact');

    expect((await acceptNew(invited.key, { fullName: 'Nora New', password: NEW_PASSWORD })).statusCode).toBe(200);
    // told once the acceptance committed, by the fan-out job
    await app.ctx.jobs.drain();

    const [notice] = await outboxFor(owner.email);
    expect(notice.template).toBe('invitationAccepted');
    expect(notice.subject).toBe('Nora New a rejoint Notice Corp');
    expect(notice.textBody).toContain(`Nora New (${invited.email})`);
    expect(notice.textBody).toContain(`/fr/accounts/${invited.customerId}`);
    const toInviter = await outboxFor(inviter.email);
    expect(toInviter.filter((mail) => mail.subject === 'Nora New joined Notice Corp')).toHaveLength(1);
    for (const silent of [quiet, disabled, tech]) expect(await outboxFor(silent.email)).toEqual([]);
    expect(await outboxFor(invited.email)).toEqual([]);
  });

  it('mails nothing when joining is refused', async () => {
    const invited = await invitation();
    await expire(invited.id);
    const before = await outboxFor(inviter.email);
    expect((await acceptNew(invited.key, { fullName: 'Late', password: NEW_PASSWORD })).statusCode).toBe(410);
    expect(await outboxFor(inviter.email)).toHaveLength(before.length);
  });
});

describe('racing requests accept an invitation once', () => {
  it('two new-account requests at once: one account, one membership, one log entry', async () => {
    const invited = await invitation();
    const answers = await Promise.all([
      acceptNew(invited.key, { fullName: 'Racer One', password: NEW_PASSWORD }),
      acceptNew(invited.key, { fullName: 'Racer Two', password: NEW_PASSWORD }),
    ]);
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses[0]).toBe(200);
    expect([409, 410]).toContain(statuses[1]);
    expect(await membershipsOf(invited.email, invited.customerId)).toHaveLength(1);
    expect(await auditOf(invited.customerId)).toHaveLength(1);
    const users = await app.ctx.db.selectFrom('users').select('id').where('email', '=', invited.email).execute();
    expect(users).toHaveLength(1);
  });

  it('two join requests of the signed-in user at once: one membership, one log entry', async () => {
    const user = await createUser(app.ctx.db, { type: 'client' });
    const invited = await invitation({ email: user.email });
    const [first, second] = [await login(app, user.email), await login(app, user.email, TEST_PASSWORD)];
    const answers = await Promise.all(
      [first, second, first, second].map((cookie) => acceptExisting(invited.key, cookie)),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const status of statuses.slice(1)) expect([409, 410]).toContain(status);
    expect(await membershipsOf(user.email, invited.customerId)).toHaveLength(1);
    expect(await auditOf(invited.customerId)).toHaveLength(1);
  });
});

describe('per-IP limit of invitation acceptance', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMIT_INVITATION_PER_MINUTE: '2', TRUST_PROXY: 'true' });
  });
  afterAll(async () => limited?.close());

  it('answers 429 with Retry-After past the limit, for that address only', async () => {
    const ip = nextIp();
    const attempt = (remoteAddress: string) =>
      request(limited.app, null, {
        method: 'POST',
        url: '/api/invitations/guessed-key/new',
        remoteAddress,
        payload: { fullName: 'Guess', password: NEW_PASSWORD },
      });
    for (let i = 0; i < 2; i++) expect((await attempt(ip)).statusCode).toBe(404);
    const refused = await attempt(ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.code).toBe('rate_limited');
    expect((await attempt(nextIp())).statusCode).toBe(404);
  });
});
