import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../db';
import { nextIp } from '../auth/test-helpers';
import { createCustomer, createInvitation, createUser, login } from '../../test/factories';
import { createTestApp, request, sessionCookieOf, type TestApp } from '../../test/harness';
import { makeJobsDue } from '../../test/jobs';
import { createSignup, type SignupProps } from '../../test/signups';
import { INSTANCE_ORDER_JOB, INSTANCE_SIMULATE_JOB } from '../instances/job-names';

/** GET /api/signup/{key} and POST /api/signup/{key}/confirm (spec sections 2 and 7; docs/decisions/067). */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_INVITATION_PER_MINUTE: '0' });
});
afterAll(async () => t?.close());

const PASSWORD = 'Trial-Password-2026!';
const answers = (extra: Record<string, unknown> = {}) => ({
  firstName: 'Tess',
  lastName: 'Trial Owner',
  password: PASSWORD,
  confirmPassword: PASSWORD,
  useCase: 'cyber-security',
  graphDB: 'neo4j',
  ...extra,
});

const signup = (props: SignupProps = {}) => createSignup(t.app.ctx.db, t.config.sessionSecret, props);
const preview = (key: string) => request(t.app, null, { method: 'GET', url: `/api/signup/${key}` });
const confirm = (key: string, payload: object = answers(), cookie: string | null = null) =>
  request(t.app, cookie, { method: 'POST', url: `/api/signup/${key}/confirm`, payload, remoteAddress: nextIp() });
const past = () => new Date(Date.now() - 1000).toISOString();

const usersWith = (email: string) => t.app.ctx.db.selectFrom('users').selectAll().where('email', '=', email).execute();
const customersNamed = (name: string) =>
  t.app.ctx.db.selectFrom('customers').selectAll().where('name', '=', name).execute();

describe('GET /api/signup/{key}', () => {
  it('gives the address, the invited full name and the company', async () => {
    const created = await signup({ firstName: 'Jean', lastName: 'Pierre Martin', companyName: 'Graphes SA' });
    const response = await preview(created.key);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      email: created.email,
      invitedFullName: 'Jean Pierre Martin',
      companyName: 'Graphes SA',
    });
  });

  it('answers an unknown, an expired and a confirmed key with its reason', async () => {
    const unknown = await preview('no-such-key');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('signup_invalid');

    const expired = await signup({ expiresAt: past() });
    expect((await preview(expired.key)).json().error).toMatchObject({ code: 'signup_expired' });
    expect((await preview(expired.key)).statusCode).toBe(410);

    const used = await signup();
    expect((await confirm(used.key)).statusCode).toBe(200);
    const again = await preview(used.key);
    expect(again.statusCode).toBe(410);
    expect(again.json().error.code).toBe('signup_confirmed');
  });

  it('does not open a customer team’s invitation, whose key is of the same kind', async () => {
    const customer = await createCustomer(t.app.ctx.db);
    const invitation = await createInvitation(t.app.ctx.db, customer.id);
    expect((await preview(invitation.key)).statusCode).toBe(404);
    expect((await confirm(invitation.key)).statusCode).toBe(404);
  });
});

describe('POST /api/signup/{key}/confirm: validation', () => {
  it('holds the password to the rule, the confirmation to the password, the choices to the lists', async () => {
    const { key } = await signup();
    const response = await confirm(
      key,
      answers({ firstName: ' ', password: 'short', confirmPassword: 'other', useCase: 'gaming', graphDB: undefined }),
    );
    expect(response.statusCode).toBe(400);
    const details = response.json().error.details as { path: string; message: string }[];
    expect(Object.fromEntries(details.map((d) => [d.path, d.message]))).toEqual({
      firstName: 'errors.required',
      password: 'password.error.too_short',
      confirmPassword: 'errors.passwordMismatch',
      useCase: 'errors.invalidOption',
      graphDB: 'errors.required',
    });
    // nothing was spent: the link still works
    expect((await preview(key)).statusCode).toBe(200);
  });

  it('reports the first failing rule of the password', async () => {
    const { key } = await signup();
    const noDigit = 'No-Digits-Here-At-All!';
    const response = await confirm(key, answers({ password: noDigit, confirmPassword: noDigit }));
    expect(response.json().error.details).toEqual([{ path: 'password', message: 'password.error.no_number' }]);
  });
});

describe('POST /api/signup/{key}/confirm', () => {
  it('makes the account, the customer in trial, its project manager and its trial instance, and signs in', async () => {
    const created = await signup({ companyName: 'Trial Graphs Ltd', locale: 'fr' });
    const response = await confirm(created.key, answers({ segmentationInfo: 'webinar-2026' }));
    expect(response.statusCode).toBe(200);
    const { customerId } = response.json() as { customerId: number };
    const cookie = sessionCookieOf(response);

    const me = await request(t.app, cookie, { method: 'GET', url: '/api/auth/me' });
    expect(me.json()).toMatchObject({ email: created.email, fullName: 'Tess Trial Owner', preferredLocale: 'fr' });

    const [user] = await usersWith(created.email);
    expect(user).toMatchObject({ type: 'client', status: 'enabled' });
    expect(user.passwordHash).not.toContain(PASSWORD);

    const [customer] = await customersNamed('Trial Graphs Ltd');
    expect(customer).toMatchObject({ id: customerId, selfService: 1 });
    expect(customer.customerKey).toMatch(/^[A-Z0-9]{10}$/);
    const subscription = await t.app.ctx.db
      .selectFrom('subscriptions')
      .select(['status', 'provider'])
      .where('customerId', '=', customerId)
      .execute();
    expect(subscription).toEqual([{ status: 'trial', provider: 'builtin' }]);
    const memberships = await t.app.ctx.db
      .selectFrom('memberships')
      .select(['userId', 'role', 'status'])
      .where('customerId', '=', customerId)
      .execute();
    expect(memberships).toEqual([{ userId: user.id, role: 'businessOwner', status: 'enabled' }]);

    const invitation = await t.app.ctx.db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(invitation).toMatchObject({ state: 'accepted', customerId, acceptedUserId: user.id });
    expect(JSON.parse(invitation.signupData!)).toMatchObject({
      companyName: 'Trial Graphs Ltd',
      useCase: 'cyber-security',
      graphDB: 'neo4j',
      segmentationInfo: 'webinar-2026',
    });

    const audit = await t.app.ctx.db
      .selectFrom('auditLog')
      .select(['action', 'actorId', 'actorKind'])
      .where('customerId', '=', customerId)
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'createCustomer', actorId: user.id, actorKind: 'user' },
      { action: 'confirmSignup', actorId: user.id, actorKind: 'user' },
      { action: 'createInstance', actorId: user.id, actorKind: 'user' },
    ]);

    // the new project manager sees their customer in trial, and its instance on its way
    const page = await request(t.app, cookie, { method: 'GET', url: `/api/customers/${customerId}` });
    expect(page.json()).toMatchObject({ name: 'Trial Graphs Ltd', paymentStatus: 'trial', yourRole: 'businessOwner' });
    const instances = await request(t.app, cookie, { method: 'GET', url: `/api/customers/${customerId}/instances` });
    expect(instances.json().data).toEqual([
      expect.objectContaining({ tier: 'trial', status: 'creating', name: expect.stringMatching(/^trial-graphs-ltd-/) }),
    ]);
    // its order to the provisioner went with the transaction: the local one walks it to provisioned
    for (let round = 0; round < 4; round++) {
      await makeJobsDue(t.app.ctx.db, INSTANCE_ORDER_JOB);
      await makeJobsDue(t.app.ctx.db, INSTANCE_SIMULATE_JOB);
      await t.app.ctx.jobs.drain();
    }
    const later = await request(t.app, cookie, { method: 'GET', url: `/api/customers/${customerId}/instances` });
    expect(later.json().data).toEqual([expect.objectContaining({ status: 'provisioned' })]);
  });

  it('works once: the link is spent', async () => {
    const { key, email } = await signup();
    expect((await confirm(key)).statusCode).toBe(200);
    const again = await confirm(key, answers({ firstName: 'Other' }));
    expect(again.statusCode).toBe(410);
    expect(again.json().error.code).toBe('signup_confirmed');
    expect(await usersWith(email)).toHaveLength(1);
  });

  it('refuses an expired link and creates nothing', async () => {
    const instancesBefore = await t.app.ctx.db.selectFrom('cloudInstances').select('id').execute();
    const { key, email, companyName } = await signup({ expiresAt: past() });
    const response = await confirm(key);
    expect(response.statusCode).toBe(410);
    expect(response.json().error.code).toBe('signup_expired');
    expect(await usersWith(email)).toHaveLength(0);
    expect(await customersNamed(companyName)).toHaveLength(0);
    expect(await t.app.ctx.db.selectFrom('cloudInstances').select('id').execute()).toHaveLength(instancesBefore.length);
  });

  it('refuses an address that got an account meanwhile', async () => {
    const { key, email, companyName } = await signup();
    await createUser(t.app.ctx.db, { email: email.toUpperCase(), type: 'client' });
    const response = await confirm(key);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('signup_already_exists');
    expect(await customersNamed(companyName)).toHaveLength(0);
  });

  it('replaces the session of a signed-in caller with the new account’s', async () => {
    const someone = await createUser(t.app.ctx.db, { type: 'client' });
    const before = await login(t.app, someone.email);
    const { key, email } = await signup();
    const response = await confirm(key, answers(), before);
    expect(response.statusCode).toBe(200);
    expect((await request(t.app, before, { method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    const me = await request(t.app, sessionCookieOf(response), { method: 'GET', url: '/api/auth/me' });
    expect(me.json().email).toBe(email);
  });
});

describe('two confirmations racing with one key', () => {
  it('make one account, one customer and one membership; the other is told the link is spent', async () => {
    const { key, email, companyName } = await signup();
    const responses = await Promise.all([confirm(key), confirm(key, answers({ lastName: 'Second' }))]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 410]);
    expect(responses.find((r) => r.statusCode === 410)!.json().error.code).toBe('signup_confirmed');
    expect(await usersWith(email)).toHaveLength(1);
    const customers = await customersNamed(companyName);
    expect(customers).toHaveLength(1);
    const memberships = await t.app.ctx.db
      .selectFrom('memberships')
      .select('id')
      .where('customerId', '=', customers[0].id)
      .execute();
    expect(memberships).toHaveLength(1);
    const instances = await t.app.ctx.db
      .selectFrom('cloudInstances')
      .select('id')
      .where('customerId', '=', customers[0].id)
      .execute();
    expect(instances).toHaveLength(1);
  });
});

describe('the pending sign-ups of the database', () => {
  it('hold one per address, whatever its case, while another may come once it is confirmed', async () => {
    const first = await signup({ email: 'Unique.Signup@example.com' });
    const second = await signup({ email: 'unique.signup@EXAMPLE.com' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(second)).toBe(true);
    expect((await confirm(first.key)).statusCode).toBe(200);
    await signup({ email: 'unique.signup@example.com' });
  });
});
