import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemActor } from '../../actor';
import type { AppContext } from '../../context';
import { login, TEST_PASSWORD } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { createUser } from './service';

/** The users service called as the command line and jobs call it: a context and an actor, no request. */
let t: TestApp;
let ctx: AppContext;

beforeAll(async () => {
  t = await createTestApp();
  ctx = t.app.ctx;
});
afterAll(async () => t?.close());

const outboxFor = (email: string) =>
  ctx.db.selectFrom('mailOutbox').select('id').where('toAddress', '=', email).execute();

describe('users service, outside any request', () => {
  it('lets a system actor create a user with a password, who can sign in and gets no link', async () => {
    const user = await createUser(ctx, systemActor('test'), {
      email: 'operator-made@example.com',
      fullname: 'Operator Made',
      type: 'admin',
      preferredLocale: 'en',
      password: TEST_PASSWORD,
    });
    expect(user).toMatchObject({ email: 'operator-made@example.com', type: 'admin', status: 'enabled' });
    expect(await outboxFor(user.email)).toHaveLength(0);
    expect(await login(t.app, user.email, TEST_PASSWORD)).toBeTruthy();
  });

  it('refuses a password from anyone but the portal itself, and a weak one from it', async () => {
    const admin = {
      id: 1,
      email: 'a@example.com',
      fullName: 'A',
      type: 'admin',
      status: 'enabled',
      preferredLocale: 'en',
    } as const;
    const asAdmin = { kind: 'user' as const, user: admin, ip: '10.9.9.9', userAgent: null, sessionHash: null };
    const input = { email: 'chosen@example.com', fullname: 'Chosen', type: 'admin', preferredLocale: 'en' } as const;
    await expect(createUser(ctx, asAdmin, { ...input, password: TEST_PASSWORD })).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(createUser(ctx, systemActor('test'), { ...input, password: 'short' })).rejects.toMatchObject({
      statusCode: 400,
    });
    expect(await ctx.db.selectFrom('users').select('id').where('email', '=', input.email).execute()).toHaveLength(0);
  });

  it('creates no account, token or mail when its welcome mail cannot be written', async () => {
    const send = vi.spyOn(ctx.mail, 'send').mockRejectedValueOnce(new Error('outbox unavailable'));
    try {
      await expect(
        createUser(ctx, systemActor('test'), {
          email: 'no-mail-no-account@example.com',
          fullname: 'Nobody',
          type: 'admin',
          preferredLocale: 'fr',
        }),
      ).rejects.toThrow('outbox unavailable');
    } finally {
      send.mockRestore();
    }
    const users = await ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'no-mail-no-account@example.com')
      .execute();
    expect(users).toHaveLength(0);
    expect(await outboxFor('no-mail-no-account@example.com')).toHaveLength(0);
  });
});
