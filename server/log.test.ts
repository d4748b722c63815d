import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from './app';
import { REDACTED, RequestLog, redactUrl, SLOW_REQUEST_MS } from './log';
import { solvedCaptcha } from './modules/auth/test-helpers';
import { createCustomer, createInvitation, createUser, TEST_PASSWORD } from './test/factories';
import { createTestApp, request, sessionCookieOf, type TestApp } from './test/harness';
import { withText } from './test/outbox';

/** Passwords, tokens, keys and cookies never reach the logs, whatever route they come through. */

let t: TestApp;
let app: FastifyInstance;
const lines: string[] = [];
const logs = () => lines.join('');
const routes: RouteOptions[] = [];

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: '0', RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '0' });
  // the same database and settings, but logging everything at info into `lines`
  app = await buildApp(
    { ...t.config, logLevel: 'info', captchaMaxNumber: 2000 },
    {
      database: t.database,
      startBackgroundWork: false,
      logStream: { write: (line) => lines.push(line) },
      onRoute: (route) => routes.push(route),
    },
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

describe('redactUrl', () => {
  it.each([
    [
      '/api/auth/check-password-reset?passwordResetToken=abc123',
      `/api/auth/check-password-reset?passwordResetToken=${REDACTED}`,
    ],
    ['/en/reset-password/abc123', `/en/reset-password/${REDACTED}`],
    ['/reset-password/abc123?x=1', `/reset-password/${REDACTED}?x=1`],
    ['/fr/invitation/KEY123', `/fr/invitation/${REDACTED}`],
    ['/en/confirm-email/abc123', `/en/confirm-email/${REDACTED}`],
    ['/en/sign-up/confirmation/KEY123', `/en/sign-up/confirmation/${REDACTED}`],
    ['/api/get/linux/p/1.0/?secret=s3cr3t&a=b', `/api/get/linux/p/1.0/?secret=${REDACTED}&a=b`],
    ['/x?api%5Fkey=v&token&filter=ok', `/x?api%5Fkey=${REDACTED}&token&filter=ok`],
    ['/api/users?pageOffset=10&filter=bob', '/api/users?pageOffset=10&filter=bob'],
    ['/x?%zz=1', '/x?%zz=1'],
    ['/en/login?interaction=UID123&sso=1', `/en/login?interaction=${REDACTED}&sso=1`],
    ['/oidc/auth/UID123', `/oidc/auth/${REDACTED}`],
    ['/oidc/interaction/UID123/details', `/oidc/interaction/${REDACTED}/details`],
    ['/oidc/auth?client_id=academy', '/oidc/auth?client_id=academy'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('request logs', () => {
  it('log requests, without their secrets', async () => {
    const user = await createUser(app.ctx.db);
    const secrets = [
      'TOKEN-IN-QUERY-123',
      'TOKEN-IN-PATH-456',
      'INVITATION-KEY-789',
      'CONFIRM-KEY-000',
      'Body-Password-42!',
    ];
    await request(app, null, { url: `/api/auth/check-password-reset?passwordResetToken=${secrets[0]}` });
    await request(app, null, { url: `/en/reset-password/${secrets[1]}` });
    await request(app, null, { url: `/fr/invitation/${secrets[2]}` });
    await request(app, null, { url: `/en/sign-up/confirmation/${secrets[3]}` });
    await request(app, null, {
      method: 'PATCH',
      url: '/api/auth/reset-password',
      payload: { passwordResetToken: secrets[0], password: secrets[4] },
    });

    const signIn = await request(app, null, {
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    const cookie = sessionCookieOf(signIn);
    await request(app, cookie, { url: '/api/auth/me', headers: { authorization: 'Bearer AUTH-HEADER-SECRET' } });

    const text = logs();
    expect(text).toContain('/api/auth/check-password-reset?passwordResetToken=[redacted]');
    expect(text).toContain('/en/reset-password/[redacted]');
    expect(text).toContain('"url":"/api/auth/me"');
    for (const secret of [...secrets, TEST_PASSWORD, cookie.split('=')[1], 'AUTH-HEADER-SECRET']) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it('log invitation keys and download secrets as [redacted], whatever the route does with them', async () => {
    const customer = await createCustomer(app.ctx.db);
    const invitation = await createInvitation(app.ctx.db, customer.id);
    const unknownKey = 'UNKNOWN-INVITATION-KEY-321';
    await request(app, null, { url: `/api/invitations/${invitation.key}` });
    await request(app, null, { url: `/api/invitations/${unknownKey}` });
    await request(app, null, {
      method: 'POST',
      url: `/api/invitations/${invitation.key}/new`,
      payload: { fullName: 'Logged Person', password: 'x' },
    });
    await request(app, null, { method: 'POST', url: `/api/invitations/${invitation.key}/existing` });
    await request(app, null, { url: '/api/get/linux/some-product/1.0.0/?secret=DOWNLOAD-SECRET-654' });

    const text = logs();
    expect(text).toContain('"url":"/api/invitations/[redacted]"');
    expect(text).toContain('"url":"/api/invitations/[redacted]/new"');
    expect(text).toContain('"url":"/api/invitations/[redacted]/existing"');
    expect(text).toContain('/api/get/linux/some-product/1.0.0/?secret=[redacted]');
    for (const secret of [invitation.key, unknownKey, 'DOWNLOAD-SECRET-654'])
      expect(text, secret).not.toContain(secret);
  });

  it('know every path parameter as an identifier or a declared secret', () => {
    // Parameters that name something (ids, a product's key, a platform): safe to log. Any other
    // parameter may carry a secret and must be declared in the route's `secretParams`.
    // `name`: a job kind's name (/api/jobs/:name/:id/retry); `deliveryId`: a webhook delivery's id
    const identifiers = new Set(['id', 'platform', 'productKey', 'semVer', 'document', 'name', 'deliveryId']);
    const undeclared: string[] = [];
    for (const route of routes) {
      const declared = route.config?.secretParams ?? [];
      for (const [, name] of route.url.matchAll(/:(\w+)/g)) {
        const productKey = name === 'key' && route.url.startsWith('/api/products/');
        if (!identifiers.has(name) && !productKey && !declared.includes(name))
          undeclared.push(`${String(route.method)} ${route.url} :${name}`);
      }
    }
    expect(routes.length).toBeGreaterThan(50);
    expect(undeclared).toEqual([]);
  });

  it('log mails kept locally without the link’s token', async () => {
    const user = await createUser(app.ctx.db);
    const answer = await request(app, null, {
      method: 'POST',
      url: '/api/auth/request-password-reset',
      payload: { email: user.email, recaptchaResponse: await solvedCaptcha(app) },
    });
    expect(answer.statusCode).toBe(200);
    await app.ctx.jobs.drain();
    const mail = await app.ctx.db
      .selectFrom('mailOutbox')
      .select('bodySealed')
      .where('toAddress', '=', user.email)
      .executeTakeFirstOrThrow()
      .then(withText(app.ctx));
    const token = mail.textBody.match(/reset-password\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token).toBeTruthy();
    const text = logs();
    expect(text).toContain('mail kept in the local mailbox');
    expect(text).toContain('/en/reset-password/[redacted]');
    expect(text).not.toContain(token);
  });
});

describe('the request log', () => {
  it('writes one line per response, with the method, the URL without its secrets, the status and the time', async () => {
    const before = lines.length;
    const answer = await request(app, null, {
      url: '/api/auth/check-password-reset?passwordResetToken=ONE-LINE-TOKEN',
    });
    const written = lines.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      method: 'GET',
      url: `/api/auth/check-password-reset?passwordResetToken=${REDACTED}`,
      statusCode: answer.statusCode,
      remoteAddress: '127.0.0.1',
    });
    expect(written[0].responseTime).toEqual(expect.any(Number));
    expect(written[0].reqId).toEqual(expect.any(String));
  });

  const logger = (level: string) => {
    const levels = ['trace', 'debug', 'info', 'warn', 'error'];
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() };
    return Object.assign(log, { isLevelEnabled: (l: string) => levels.indexOf(l) >= levels.indexOf(level) });
  };
  const requestOf = (log: ReturnType<typeof logger>) =>
    ({ method: 'GET', url: '/api/customers', ip: '10.0.0.1', log }) as unknown as FastifyRequest;
  const replyOf = (log: ReturnType<typeof logger>, elapsedTime: number) =>
    ({ statusCode: 200, elapsedTime, log }) as unknown as FastifyReply;

  it('writes a slow response at warn and a failed one at error, which LOG_LEVEL=warn keeps alone', () => {
    const log = logger('warn');
    const requestLog = new RequestLog();
    requestLog.requestCompleted(null, requestOf(log), replyOf(log, 3));
    requestLog.requestCompleted(null, requestOf(log), replyOf(log, SLOW_REQUEST_MS + 1));
    requestLog.requestCompleted(new Error('socket hang up'), requestOf(log), replyOf(log, 2));
    expect(log.info).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledWith(
      expect.objectContaining({ url: '/api/customers', statusCode: 200, responseTime: SLOW_REQUEST_MS + 1 }),
      'slow request',
    );
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'request errored');
  });

  it('notes a request on its arrival at debug only', () => {
    const log = logger('info');
    new RequestLog().incomingRequest(requestOf(log));
    expect(log.info).not.toHaveBeenCalled();
    expect(log.debug).toHaveBeenCalledWith(expect.anything(), 'incoming request');
  });
});
