import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustomer, createUser, login, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { enrolTotp, passkeyAnswer } from '../../test/two-factor';
import { findUsableResetToken } from '../auth/repo';
import { EMAIL_TAKEN, FIRST_PASSWORD_LINK_VALIDITY_MS } from './service';
import { withText } from '../../test/outbox';

let t: TestApp;
let app: FastifyInstance;
let admin: { id: number; email: string; cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  admin = await signedIn(app, 'admin');
});
afterAll(async () => t?.close());

const asAdmin = (options: Parameters<typeof request>[2]) => request(app, admin.cookie, options);

describe('who may manage users', () => {
  it('answers 401 to anonymous callers', async () => {
    for (const options of [
      { method: 'GET' as const, url: '/api/users' },
      { method: 'POST' as const, url: '/api/users', payload: { email: 'x@example.com', fullname: 'X' } },
      { method: 'GET' as const, url: `/api/users/${admin.id}` },
      { method: 'PATCH' as const, url: `/api/users/${admin.id}`, payload: { fullname: 'X' } },
    ]) {
      expect((await request(app, null, options)).statusCode).toBe(401);
    }
  });

  it('answers 403 to every user who is not an admin', async () => {
    const customer = await createCustomer(app.ctx.db);
    const actors = [
      await signedIn(app, 'accountExecutive', { id: customer.id, role: 'accountExecutive' }),
      await signedIn(app, 'productManager'),
      await signedIn(app, 'supportEngineer'),
      await signedIn(app, 'client', { id: customer.id, role: 'businessOwner' }),
    ];
    for (const actor of actors) {
      const list = await request(app, actor.cookie, { method: 'GET', url: '/api/users' });
      expect(list.statusCode).toBe(403);
      expect(list.json().error.code).toBe('forbidden');
      const create = await request(app, actor.cookie, {
        method: 'POST',
        url: '/api/users',
        payload: { email: 'nope@example.com', fullname: 'Nope' },
      });
      expect(create.statusCode).toBe(403);
      const patch = await request(app, actor.cookie, {
        method: 'PATCH',
        url: `/api/users/${actor.id}`,
        payload: { fullname: 'Promoted' },
      });
      expect(patch.statusCode).toBe(403);
    }
  });
});

describe('GET /api/users', () => {
  it('pages through users ordered by id with the total count', async () => {
    for (let i = 0; i < 3; i++) await createUser(app.ctx.db, { fullName: `Pager ${i}` });
    const all = await asAdmin({ method: 'GET', url: '/api/users?pageLength=100' });
    expect(all.statusCode).toBe(200);
    const ids = all.json().results.map((u: { id: number }) => u.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const total = all.json().totalHits;
    expect(total).toBe(ids.length);

    const page = await asAdmin({ method: 'GET', url: '/api/users?pageOffset=1&pageLength=2' });
    expect(page.json()).toMatchObject({ pageOffset: 1, pageLength: 2, totalHits: total });
    expect(page.json().results.map((u: { id: number }) => u.id)).toEqual(ids.slice(1, 3));
  });

  it('uses the default page length and maps the full name to fullname', async () => {
    const response = await asAdmin({ method: 'GET', url: '/api/users' });
    expect(response.json()).toMatchObject({ pageOffset: 0, pageLength: 10 });
    const me = response.json().results.find((u: { id: number }) => u.id === admin.id);
    expect(me).toEqual({
      id: admin.id,
      fullname: 'admin user',
      email: admin.email,
      type: 'admin',
      status: 'enabled',
      preferredLocale: 'en',
      // the admin's own row: edited, but its status stays (users/policy.ts)
      can: { edit: true, changeStatus: false },
      twoFactor: { passkeys: 0, authenticator: false },
    });
  });

  it('says whether each user has two-factor sign-in on: passkeys counted, the authenticator app or not', async () => {
    const both = await createUser(app.ctx.db, { fullName: 'Both Factors', type: 'supportEngineer' });
    const bothCookie = await login(app, both.email);
    for (let i = 0; i < 2; i++) {
      const added = await request(app, bothCookie, {
        method: 'POST',
        url: '/api/auth/two-factor/passkeys',
        payload: await passkeyAnswer(app, bothCookie),
      });
      expect(added.statusCode).toBe(200);
    }
    await enrolTotp(app, bothCookie);
    const appOnly = await createUser(app.ctx.db, { fullName: 'App Only', type: 'productManager' });
    await enrolTotp(app, await login(app, appOnly.email));
    const none = await createUser(app.ctx.db, { fullName: 'No Factor', type: 'productManager' });

    const list = await asAdmin({ method: 'GET', url: '/api/users?pageLength=100' });
    const factorsOf = (id: number) =>
      (list.json().results as { id: number; twoFactor: unknown }[]).find((u) => u.id === id)?.twoFactor;
    expect(factorsOf(both.id)).toEqual({ passkeys: 2, authenticator: true });
    expect(factorsOf(appOnly.id)).toEqual({ passkeys: 0, authenticator: true });
    expect(factorsOf(none.id)).toEqual({ passkeys: 0, authenticator: false });
    const one = await asAdmin({ method: 'GET', url: `/api/users/${both.id}` });
    expect(one.json().twoFactor).toEqual({ passkeys: 2, authenticator: true });

    // after an admin's reset, the same answer says so
    expect((await asAdmin({ method: 'DELETE', url: `/api/users/${both.id}/two-factor` })).statusCode).toBe(200);
    const after = await asAdmin({ method: 'GET', url: `/api/users/${both.id}` });
    expect(after.json().twoFactor).toEqual({ passkeys: 0, authenticator: false });
  });

  it("lets the admin change every other row's status (can on each row)", async () => {
    const other = await createUser(app.ctx.db, { fullName: 'Status Row', type: 'productManager' });
    const response = await asAdmin({ method: 'GET', url: '/api/users?pageLength=100' });
    const rows: { id: number; can: unknown }[] = response.json().results;
    expect(rows.find((u) => u.id === other.id)?.can).toEqual({ edit: true, changeStatus: true });
    expect(rows.filter((u) => u.id !== admin.id).every((u) => (u.can as { changeStatus: boolean }).changeStatus)).toBe(
      true,
    );
    const one = await asAdmin({ method: 'GET', url: `/api/users/${admin.id}` });
    expect(one.json().can).toEqual({ edit: true, changeStatus: false });
  });

  it('filters by full name, e-mail or id, whatever the case', async () => {
    const zoe = await createUser(app.ctx.db, { fullName: 'Zoë Quartermaine', email: 'zq.filter@example.com' });
    const byName = await asAdmin({ method: 'GET', url: '/api/users?filter=QUARTERMAINE' });
    expect(byName.json().results.map((u: { id: number }) => u.id)).toEqual([zoe.id]);
    expect(byName.json().totalHits).toBe(1);
    const byEmail = await asAdmin({ method: 'GET', url: '/api/users?filter=ZQ.FILTER@' });
    expect(byEmail.json().results.map((u: { id: number }) => u.id)).toEqual([zoe.id]);
    const byId = await asAdmin({ method: 'GET', url: `/api/users?filter=${zoe.id}&pageLength=100` });
    expect(byId.json().results.map((u: { id: number }) => u.id)).toContain(zoe.id);
    const none = await asAdmin({ method: 'GET', url: '/api/users?filter=nobody-has-this-name' });
    expect(none.json()).toMatchObject({ results: [], totalHits: 0 });
  });

  it('treats % and _ in the filter as plain characters', async () => {
    const percent = await createUser(app.ctx.db, { fullName: 'Hundred % Sure' });
    await createUser(app.ctx.db, { fullName: 'Hundred Xx Sure' });
    const response = await asAdmin({ method: 'GET', url: `/api/users?filter=${encodeURIComponent('d % s')}` });
    expect(response.json().results.map((u: { id: number }) => u.id)).toEqual([percent.id]);
    const underscore = await asAdmin({ method: 'GET', url: '/api/users?filter=hundred_' });
    expect(underscore.json().totalHits).toBe(0);
  });

  it('refuses a page length out of bounds', async () => {
    expect((await asAdmin({ method: 'GET', url: '/api/users?pageLength=0' })).statusCode).toBe(400);
    expect((await asAdmin({ method: 'GET', url: '/api/users?pageLength=1000' })).statusCode).toBe(400);
    expect((await asAdmin({ method: 'GET', url: '/api/users?pageOffset=-1' })).statusCode).toBe(400);
  });
});

describe('POST /api/users', () => {
  it('creates an enabled user without password and mails a 7-day link to choose one', async () => {
    const send = vi.spyOn(app.ctx.mail, 'send');
    const before = Date.now();
    const response = await asAdmin({
      method: 'POST',
      url: '/api/users',
      payload: {
        email: ' New.Person@Example.com ',
        fullname: 'Nouvelle Personne',
        type: 'supportEngineer',
        preferredLocale: 'fr',
      },
    });
    expect(response.statusCode).toBe(201);
    const user = response.json();
    expect(user).toEqual({
      id: expect.any(Number),
      fullname: 'Nouvelle Personne',
      email: 'new.person@example.com',
      type: 'supportEngineer',
      status: 'enabled',
      preferredLocale: 'fr',
      can: { edit: true, changeStatus: true },
      twoFactor: { passkeys: 0, authenticator: false },
    });
    const row = await app.ctx.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.passwordHash).toBeNull();

    expect(send).toHaveBeenCalledTimes(1);
    const mail = send.mock.calls[0][0];
    expect(mail).toMatchObject({
      to: 'new.person@example.com',
      template: 'accountCreated',
      locale: 'fr',
      data: { fullName: 'Nouvelle Personne', validityHours: 168 },
    });
    const link = new URL(mail.data.link);
    expect(`${link.origin}${link.pathname}`).toMatch(/^http:\/\/portal\.test\/fr\/reset-password\/[^/]+$/);
    const token = decodeURIComponent(link.pathname.split('/').pop()!);
    expect((await findUsableResetToken(app.ctx.db, token))?.userId).toBe(user.id);
    const stored = await app.ctx.db
      .selectFrom('passwordResetTokens')
      .select('expiresAt')
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    const validity = Date.parse(stored.expiresAt) - before;
    expect(validity).toBeGreaterThanOrEqual(FIRST_PASSWORD_LINK_VALIDITY_MS - 1000);
    expect(validity).toBeLessThanOrEqual(FIRST_PASSWORD_LINK_VALIDITY_MS + 60_000);
    send.mockRestore();

    // the real mailer queued it, in French, with the link and its validity
    const queued = await app.ctx.db
      .selectFrom('mailOutbox')
      .selectAll()
      .where('toAddress', '=', 'new.person@example.com')
      .executeTakeFirstOrThrow()
      .then(withText(app.ctx));
    expect(queued.template).toBe('accountCreated');
    expect(queued.textBody).toContain(mail.data.link);
    expect(queued.textBody).toContain('7 jours');
  });

  it('defaults to an English-speaking admin', async () => {
    const response = await asAdmin({
      method: 'POST',
      url: '/api/users',
      payload: { email: 'defaults@example.com', fullname: 'Dee Faults' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ type: 'admin', preferredLocale: 'en', status: 'enabled' });
  });

  it('refuses an e-mail already used, whatever its case', async () => {
    const existing = await createUser(app.ctx.db, { email: 'taken.create@example.com' });
    const send = vi.spyOn(app.ctx.mail, 'send');
    const response = await asAdmin({
      method: 'POST',
      url: '/api/users',
      payload: { email: existing.email.toUpperCase(), fullname: 'Copy Cat' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: {
        code: 'email_taken',
        message: EMAIL_TAKEN,
        details: [{ path: 'email', message: 'apiErrors.email_taken' }],
      },
    });
    expect(send).not.toHaveBeenCalled();
    send.mockRestore();
  });

  it('refuses client users, unknown fields and missing or invalid values', async () => {
    const bodies = [
      { email: 'client@example.com', fullname: 'A Client', type: 'client' },
      { email: 'extra@example.com', fullname: 'Extra', status: 'disabled' },
      { email: 'extra@example.com', fullname: 'Extra', password: 'Some-Password-123' },
      { fullname: 'No Mail' },
      { email: 'not-an-email', fullname: 'Bad Mail' },
      { email: 'blank@example.com', fullname: '   ' },
      { email: 'locale@example.com', fullname: 'Locale', preferredLocale: 'de' },
    ];
    for (const payload of bodies) {
      const response = await asAdmin({ method: 'POST', url: '/api/users', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.code).toBe('validation_error');
    }
  });
});

describe('GET /api/users/:id', () => {
  it('returns one user, or 404', async () => {
    const user = await createUser(app.ctx.db, { fullName: 'Single One', type: 'productManager' });
    const response = await asAdmin({ method: 'GET', url: `/api/users/${user.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: user.id, fullname: 'Single One', type: 'productManager' });
    const missing = await asAdmin({ method: 'GET', url: '/api/users/999999' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    expect((await asAdmin({ method: 'GET', url: '/api/users/abc' })).statusCode).toBe(400);
  });
});

describe('PATCH /api/users/:id', () => {
  it('changes e-mail, full name, status and language', async () => {
    const user = await createUser(app.ctx.db, { type: 'accountExecutive' });
    const response = await asAdmin({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      payload: { email: 'Renamed.User@Example.com', fullname: 'Renamed User', preferredLocale: 'fr' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user.id,
      email: 'renamed.user@example.com',
      fullname: 'Renamed User',
      type: 'accountExecutive',
      status: 'enabled',
      preferredLocale: 'fr',
      can: { edit: true, changeStatus: true },
      twoFactor: { passkeys: 0, authenticator: false },
    });
    const empty = await asAdmin({ method: 'PATCH', url: `/api/users/${user.id}`, payload: {} });
    expect(empty.json()).toEqual(response.json());
  });

  it('does not change the type, nor accept unknown fields', async () => {
    const user = await createUser(app.ctx.db, { type: 'supportEngineer' });
    for (const payload of [{ type: 'admin' }, { passwordHash: 'x' }, { status: 'pending' }, { email: 'nope' }]) {
      const response = await asAdmin({ method: 'PATCH', url: `/api/users/${user.id}`, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const after = await asAdmin({ method: 'GET', url: `/api/users/${user.id}` });
    expect(after.json().type).toBe('supportEngineer');
  });

  it('refuses an e-mail used by someone else, whatever its case', async () => {
    const other = await createUser(app.ctx.db, { email: 'taken.patch@example.com' });
    const user = await createUser(app.ctx.db);
    const response = await asAdmin({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      payload: { email: 'TAKEN.PATCH@example.com' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(EMAIL_TAKEN);
    // keeping one's own address is not a conflict
    const same = await asAdmin({ method: 'PATCH', url: `/api/users/${other.id}`, payload: { email: other.email } });
    expect(same.statusCode).toBe(200);
  });

  it('answers 404 for an unknown user', async () => {
    const response = await asAdmin({ method: 'PATCH', url: '/api/users/999999', payload: { fullname: 'Ghost' } });
    expect(response.statusCode).toBe(404);
  });

  it('does not let an admin disable themself', async () => {
    const response = await asAdmin({ method: 'PATCH', url: `/api/users/${admin.id}`, payload: { status: 'disabled' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toEqual({
      code: 'cannot_disable_self',
      message: 'You cannot disable your own account',
      details: [{ path: 'status', message: 'apiErrors.cannot_disable_self' }],
    });
    // other changes to one's own account are fine
    const rename = await asAdmin({
      method: 'PATCH',
      url: `/api/users/${admin.id}`,
      payload: { fullname: 'admin user', status: 'enabled' },
    });
    expect(rename.statusCode).toBe(200);
  });

  it('ends the sessions of a user it disables, and lets them back in once enabled', async () => {
    const other = await createUser(app.ctx.db, { type: 'admin' });
    const cookie = await login(app, other.email);
    expect((await request(app, cookie, { method: 'GET', url: '/api/users' })).statusCode).toBe(200);

    const disable = await asAdmin({ method: 'PATCH', url: `/api/users/${other.id}`, payload: { status: 'disabled' } });
    expect(disable.statusCode).toBe(200);
    expect(disable.json().status).toBe('disabled');
    const sessions = await app.ctx.db.selectFrom('sessions').select('id').where('userId', '=', other.id).execute();
    expect(sessions).toHaveLength(0);
    expect((await request(app, cookie, { method: 'GET', url: '/api/users' })).statusCode).toBe(401);

    const enable = await asAdmin({ method: 'PATCH', url: `/api/users/${other.id}`, payload: { status: 'enabled' } });
    expect(enable.json().status).toBe('enabled');
    const again = await login(app, other.email);
    expect((await request(app, again, { method: 'GET', url: '/api/users' })).statusCode).toBe(200);
  });
});
