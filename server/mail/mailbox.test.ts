import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('local mailbox (/dev/mailbox)', () => {
  it('lists the outbox newest first, as JSON and as an escaped HTML page with clickable links', async () => {
    const link = 'http://portal.test/en/reset-password/abc?x=1&y=2';
    await t.app.ctx.mail.send({
      to: 'first@example.com',
      template: 'passwordReset',
      locale: 'en',
      data: { fullName: 'First', link, validityHours: 1 },
    });
    await t.app.ctx.mail.send({
      to: 'second@example.com',
      template: 'accountCreated',
      locale: 'fr',
      data: { fullName: '<img src=x onerror=alert(1)>', link, validityHours: 1 },
    });

    const json = await t.app.inject({ method: 'GET', url: '/dev/mailbox.json' });
    expect(json.statusCode).toBe(200);
    const list = json.json();
    expect(list.map((m: { to: string }) => m.to)).toEqual(['second@example.com', 'first@example.com']);
    expect(list[1]).toMatchObject({
      to: 'first@example.com',
      subject: 'Reset your password',
      status: 'pending',
      text: expect.stringContaining(link),
      html: expect.stringContaining('<a href='),
      createdAt: expect.any(String),
      id: expect.any(Number),
    });

    const only = await t.app.inject({ method: 'GET', url: '/dev/mailbox.json?to=FIRST@example.com' });
    expect(only.json()).toHaveLength(1);

    const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).not.toContain('<script');
    expect(page.body).not.toContain('<img');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).toContain('<a href="http://portal.test/en/reset-password/abc?x=1&amp;y=2">');
    expect(page.body.indexOf('second@example.com')).toBeLessThan(page.body.indexOf('first@example.com'));
  });
});

describe('without the local mailbox', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await createTestApp({ DEV_MAILBOX: 'false' });
  });
  afterAll(async () => prod?.close());

  it('has no mailbox pages', async () => {
    expect((await prod.app.inject({ method: 'GET', url: '/dev/mailbox.json' })).statusCode).not.toBe(200);
    expect((await prod.app.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).not.toBe(200);
  });
});
