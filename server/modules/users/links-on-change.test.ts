import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuePasswordResetToken } from '../auth/tokens';
import { createUser, signedIn } from '../../test/factories';
import { BASE_URL, createTestApp, request, type TestApp } from '../../test/harness';
import { withText } from '../../test/outbox';

/**
 * Issue 5, 6.1: a first-password or reset link must not outlive a change of the account's e-mail,
 * nor its disabling or re-enabling.
 */

let t: TestApp;
let app: FastifyInstance;
let admin: { cookie: string };

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  admin = await signedIn(app, 'admin');
});
afterAll(async () => t?.close());

let seq = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now()}-${++seq}@example.com`;

const patchUser = (id: number, payload: Record<string, unknown>) =>
  request(app, admin.cookie, { method: 'PATCH', url: `/api/users/${id}`, payload });

const linkWorks = async (token: string) =>
  (
    await request(app, null, {
      method: 'GET',
      url: `/api/auth/check-password-reset?passwordResetToken=${encodeURIComponent(token)}`,
    })
  ).statusCode === 200;

/** The reset-password tokens of the mails queued for an address, oldest first. */
async function linksMailedTo(email: string): Promise<string[]> {
  const rows = await app.ctx.db
    .selectFrom('mailOutbox')
    .select('bodySealed')
    .where('toAddress', '=', email)
    .orderBy('id')
    .execute();
  return rows
    .map(withText(app.ctx))
    .flatMap((row) =>
      [...row.textBody.matchAll(new RegExp(`${BASE_URL}/(?:en|fr)/reset-password/([A-Za-z0-9_-]+)`, 'g'))].map(
        (m) => m[1],
      ),
    );
}

async function createStaff(email: string) {
  const response = await request(app, admin.cookie, {
    method: 'POST',
    url: '/api/users',
    payload: { email, fullname: 'Typo Person', type: 'supportEngineer', preferredLocale: 'en' },
  });
  expect(response.statusCode).toBe(201);
  const [welcome] = await linksMailedTo(email);
  expect(welcome).toBeDefined();
  return { id: response.json().id as number, welcome };
}

describe('links when an admin changes an account', () => {
  it('voids the welcome link mailed to a mistyped address and mails a new one to the corrected address', async () => {
    const typo = uniqueEmail('typo');
    const { id, welcome } = await createStaff(typo);
    expect(await linkWorks(welcome)).toBe(true);

    const corrected = uniqueEmail('corrected');
    expect((await patchUser(id, { email: corrected })).statusCode).toBe(200);

    // Whoever reads the typo address cannot choose the corrected account's password.
    expect(await linkWorks(welcome)).toBe(false);
    const stolen = await request(app, null, {
      method: 'PATCH',
      url: '/api/auth/reset-password',
      payload: { passwordResetToken: welcome, password: 'Stolen-Password-123!' },
    });
    expect(stolen.statusCode).toBe(400);

    const [fresh, ...more] = await linksMailedTo(corrected);
    expect(more).toEqual([]);
    expect(await linkWorks(fresh)).toBe(true);
    const chosen = await request(app, null, {
      method: 'PATCH',
      url: '/api/auth/reset-password',
      payload: { passwordResetToken: fresh, password: 'Chosen-Password-123!' },
    });
    expect(chosen.statusCode).toBe(200);
  });

  it('voids an old welcome link when the account is disabled and then re-enabled', async () => {
    const { id, welcome } = await createStaff(uniqueEmail('toggled'));
    expect((await patchUser(id, { status: 'disabled' })).statusCode).toBe(200);
    expect((await patchUser(id, { status: 'enabled' })).statusCode).toBe(200);
    expect(await linkWorks(welcome)).toBe(false);
  });

  it('voids a reset link of an account with a password when its e-mail changes, without a welcome mail', async () => {
    const user = await createUser(app.ctx.db);
    const token = await issuePasswordResetToken(app.ctx.db, user.id);
    const next = uniqueEmail('moved');
    expect((await patchUser(user.id, { email: next })).statusCode).toBe(200);
    expect(await linkWorks(token)).toBe(false);
    expect(await linksMailedTo(next)).toEqual([]);
  });

  it('keeps the links when only the name or the language changes', async () => {
    const { id, welcome } = await createStaff(uniqueEmail('renamed'));
    expect((await patchUser(id, { fullname: 'Renamed Person', preferredLocale: 'fr' })).statusCode).toBe(200);
    expect(await linkWorks(welcome)).toBe(true);
  });

  it('sends no new link to a corrected address of a disabled account', async () => {
    const { id } = await createStaff(uniqueEmail('disabled'));
    expect((await patchUser(id, { status: 'disabled' })).statusCode).toBe(200);
    const next = uniqueEmail('disabled-corrected');
    expect((await patchUser(id, { email: next })).statusCode).toBe(200);
    expect(await linksMailedTo(next)).toEqual([]);
  });
});
