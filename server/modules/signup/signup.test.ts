import PostalMime from 'postal-mime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nextIp } from '../auth/test-helpers';
import { createCustomer, createInvitation, createUser, login } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { createSignup } from '../../test/signups';
import { SmtpPeer } from '../../test/smtp-peer';

/** POST /api/signup (spec sections 2, 4, 7 and 8; docs/decisions/067). */

let t: TestApp;
let peer: SmtpPeer;

beforeAll(async () => {
  peer = new SmtpPeer();
  // The limit has its own test below; the others must not depend on how fast they run.
  t = await createTestApp({ SMTP_URL: await peer.listen(), RATE_LIMIT_SIGNUP_PER_MINUTE: '0' });
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
});
afterEach(() => {
  peer.received = [];
});

let counter = 0;
const freshEmail = (label = 'visitor') => `${label}-${Date.now().toString(36)}-${counter++}@example.com`;

const form = (email: string, extra: Record<string, unknown> = {}) => ({
  email,
  firstName: 'Vera',
  lastName: 'Visitor',
  companyName: 'Vera Graphs',
  jobTitle: 'Data architect',
  ...extra,
});

const signUp = (payload: object, cookie: string | null = null) =>
  request(t.app, cookie, { method: 'POST', url: '/api/signup', payload, remoteAddress: nextIp() });

/** Delivers the queued mails to the SMTP peer and reads those sent to `email`. */
async function mailsTo(email: string) {
  await t.app.ctx.jobs.drain();
  const parsed = await Promise.all(peer.received.map((raw) => PostalMime.parse(raw)));
  return parsed.filter((mail) => mail.to?.some((to) => to.address?.toLowerCase() === email.toLowerCase()));
}

const signupRows = (email: string) =>
  t.app.ctx.db
    .selectFrom('invitations')
    .selectAll()
    .where('selfService', '=', 1)
    .where('invitedEmail', '=', email.toLowerCase())
    .execute();

const linkIn = (text: string) => /http:\/\/portal\.test\/(en|fr)\/sign-up\/confirmation\/([A-Za-z0-9_-]+)/.exec(text);

describe('POST /api/signup: the form', () => {
  it('requires the five fields and a well-formed address, each named in details', async () => {
    const response = await signUp({ email: 'not-an-address', firstName: '  ' });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('validation_error');
    const byPath = Object.fromEntries(
      (error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]),
    );
    expect(byPath).toEqual({
      email: 'email.invalid',
      firstName: 'errors.required',
      lastName: 'errors.required',
      companyName: 'errors.required',
      jobTitle: 'errors.required',
    });
  });

  it('refuses a language the portal does not speak, and a text too long', async () => {
    const response = await signUp(form(freshEmail(), { locale: 'de', companyName: 'x'.repeat(201) }));
    expect(response.statusCode).toBe(400);
    const paths = (response.json().error.details as { path: string }[]).map((d) => d.path).sort();
    expect(paths).toEqual(['companyName', 'locale']);
  });

  it('is for visitors: a signed-in caller is refused and nothing is stored', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'client' });
    const email = freshEmail();
    const response = await signUp(form(email), await login(t.app, user.email));
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('signed_in');
    expect(await signupRows(email)).toHaveLength(0);
  });
});

describe('POST /api/signup: outcomes', () => {
  it('stores a pending sign-up without a customer and mails its link in English', async () => {
    const email = freshEmail();
    const response = await signUp(form(email.toUpperCase()));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });

    const [row, ...others] = await signupRows(email);
    expect(others).toHaveLength(0);
    expect(row).toMatchObject({
      customerId: null,
      inviterId: null,
      invitedFullName: 'Vera Visitor',
      role: 'businessOwner',
      locale: 'en',
      state: 'pending',
      acceptedAt: null,
    });
    expect(JSON.parse(row.signupData!)).toEqual({
      firstName: 'Vera',
      lastName: 'Visitor',
      companyName: 'Vera Graphs',
      jobTitle: 'Data architect',
    });
    expect(Date.parse(row.expiresAt) - Date.parse(row.sentAt)).toBe(7 * 24 * 3600 * 1000);

    const [mail, ...more] = await mailsTo(email);
    expect(more).toHaveLength(0);
    expect(mail.subject).toBe('Confirm your sign-up to the customer portal');
    expect(mail.text).toContain('Hello Vera Visitor,');
    expect(mail.text).toContain('Vera Graphs');
    const link = linkIn(mail.text ?? '');
    expect(link?.[1]).toBe('en');
    // the mailed key opens the confirmation page's data
    const preview = await request(t.app, null, { method: 'GET', url: `/api/signup/${link![2]}` });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({ email, invitedFullName: 'Vera Visitor', companyName: 'Vera Graphs' });

    const audit = await t.app.ctx.db
      .selectFrom('auditLog')
      .select(['actorKind', 'data'])
      .where('action', '=', 'requestSignup')
      .where('data', 'like', `%${email}%`)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0].actorKind).toBe('anonymous');
  });

  it('mails in French, with the French page, when sent from it', async () => {
    const email = freshEmail('francoise');
    const response = await signUp(form(email, { firstName: 'Françoise', locale: 'fr' }));
    expect(response.statusCode).toBe(200);
    expect((await signupRows(email))[0].locale).toBe('fr');
    const [mail] = await mailsTo(email);
    expect(mail.subject).toBe('Confirmez votre inscription au portail client');
    expect(mail.text).toContain('Bonjour Françoise Visitor');
    expect(mail.text).toContain('Confirmer mon inscription');
    expect(linkIn(mail.text ?? '')?.[1]).toBe('fr');
  });

  it('tells an address that has an account so (spec 8), whatever its case, and mails nothing', async () => {
    const user = await createUser(t.app.ctx.db, { type: 'client', email: freshEmail('member') });
    const response = await signUp(form(user.email.toUpperCase()));
    expect(response.statusCode).toBe(409);
    const { error } = response.json();
    expect(error.code).toBe('signup_already_exists');
    // spec 4: the existing-user screen is for an error "containing already exists"
    expect(error.message).toContain('already exists');
    // nothing more than the screen says
    expect(Object.keys(error).sort()).toEqual(['code', 'message']);
    expect(await signupRows(user.email)).toHaveLength(0);
    expect(await mailsTo(user.email)).toHaveLength(0);
  });

  it('tells an address whose sign-up waits for its confirmation so, and does not mail it again', async () => {
    const email = freshEmail();
    expect((await signUp(form(email))).statusCode).toBe(200);
    expect(await mailsTo(email)).toHaveLength(1);
    const again = await signUp(form(email, { companyName: 'Another name' }));
    expect(again.statusCode).toBe(409);
    const { error } = again.json();
    expect(error.code).toBe('signup_pending_invitation');
    // spec 4: the pending screen is for an error "containing pending invitation"
    expect(error.message).toContain('pending invitation');
    expect(Object.keys(error).sort()).toEqual(['code', 'message']);
    const rows = await signupRows(email);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0].signupData!).companyName).toBe('Vera Graphs');
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('replaces a sign-up whose link expired: a new key, a new mail, the old link dead', async () => {
    const old = await createSignup(t.app.ctx.db, t.config.sessionSecret, {
      email: freshEmail(),
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const response = await signUp(form(old.email, { companyName: 'Renewed Graphs' }));
    expect(response.statusCode).toBe(200);
    const rows = await signupRows(old.email);
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(old.id);
    expect(Date.parse(rows[0].expiresAt)).toBeGreaterThan(Date.now());
    expect(JSON.parse(rows[0].signupData!).companyName).toBe('Renewed Graphs');
    const [mail] = await mailsTo(old.email);
    const key = linkIn(mail.text ?? '')![2];
    expect(key).not.toBe(old.key);
    expect((await request(t.app, null, { method: 'GET', url: `/api/signup/${old.key}` })).statusCode).toBe(404);
    expect((await request(t.app, null, { method: 'GET', url: `/api/signup/${key}` })).statusCode).toBe(200);
  });

  it('ignores a pending invitation from a customer team: that is not a sign-up', async () => {
    const email = freshEmail('invited');
    const customer = await createCustomer(t.app.ctx.db);
    await createInvitation(t.app.ctx.db, customer.id, { email });
    expect((await signUp(form(email))).statusCode).toBe(200);
    expect(await signupRows(email)).toHaveLength(1);
  });

  it('answers every outcome after the same floor, so its time tells nothing more', async () => {
    expect(t.config.signupAnswerFloorMs).toBe(300);
    const user = await createUser(t.app.ctx.db, { type: 'client', email: freshEmail('timed') });
    const pending = freshEmail('timed');
    await signUp(form(pending));
    for (const email of [freshEmail('timed'), user.email, pending]) {
      const started = performance.now();
      const response = await signUp(form(email));
      expect([200, 409]).toContain(response.statusCode);
      expect(performance.now() - started).toBeGreaterThanOrEqual(t.config.signupAnswerFloorMs - 5);
    }
  });
});

describe('POST /api/signup: two sign-ups racing with one address', () => {
  it('store one sign-up and send one mail; the other is told it is pending', async () => {
    const email = freshEmail('racer');
    const responses = await Promise.all([
      signUp(form(email)),
      signUp(form(email.toUpperCase(), { companyName: 'Other' })),
    ]);
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = responses.find((r) => r.statusCode === 409)!;
    expect(refused.json().error.code).toBe('signup_pending_invitation');
    expect(await signupRows(email)).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('renew an expired sign-up once', async () => {
    const old = await createSignup(t.app.ctx.db, t.config.sessionSecret, {
      email: freshEmail('racer'),
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const responses = await Promise.all([signUp(form(old.email)), signUp(form(old.email))]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await signupRows(old.email)).toHaveLength(1);
    expect(await mailsTo(old.email)).toHaveLength(1);
  });
});

describe('per-IP limit of sign-ups', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMIT_SIGNUP_PER_MINUTE: '2', TRUST_PROXY: 'true' });
  });
  afterAll(async () => limited?.close());

  it('answers 429 with Retry-After past the limit, for that address only', async () => {
    const ip = nextIp();
    const attempt = (remoteAddress: string) =>
      request(limited.app, null, { method: 'POST', url: '/api/signup', remoteAddress, payload: form(freshEmail()) });
    for (let i = 0; i < 2; i++) expect((await attempt(ip)).statusCode).toBe(200);
    const refused = await attempt(ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error.code).toBe('rate_limited');
    expect((await attempt(nextIp())).statusCode).toBe(200);
  });
});
