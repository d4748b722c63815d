import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { openDatabase } from '../../db';
import { createCustomer, createUser, signedIn, TEST_PASSWORD } from '../../test/factories';
import { BASE_URL, createTestApp, request, TEST_DIALECT, type TestApp } from '../../test/harness';
import { scratchPostgres } from '../../test/scratch-postgres';
import { SmtpPeer } from '../../test/smtp-peer';
import { nextIp, solvedCaptcha } from '../auth/test-helpers';
import { createBackup } from './backup';
import { allRows, listTables } from './repo';
import { restoreBackup } from './restore';

/**
 * A backup holds no working link (docs/decisions/083). The mails that grant access (a new staff
 * user's first password, a password reset, an invitation, a self-service sign-up, an e-mail change)
 * are sent, some delivered and some still queued; a backup is taken with the real backup code and
 * restored into a new database. No URL of any column of the restored database opens anything, while
 * the links of the very mails the SMTP peer received do, in the restored portal too: the tokens are
 * there (hashed), the links are not.
 */

const SESSION_SECRET = 'test-session-secret-that-is-long-enough-000';
const LINK = /https?:\/\/[^\s<>"'\\)\]]+/g;
/** The access links the portal mails, by what answers whether one still works (without using it). */
const ACCESS = [
  { kind: 'reset', path: /\/(?:en|fr)\/reset-password\/([^/?#]+)$/ },
  { kind: 'invitation', path: /\/(?:en|fr)\/invitation\/([^/?#]+)$/ },
  { kind: 'signup', path: /\/(?:en|fr)\/sign-up\/confirmation\/([^/?#]+)$/ },
  { kind: 'emailChange', path: /\/(?:en|fr)\/confirm-email\/([^/?#]+)$/ },
] as const;
type Kind = (typeof ACCESS)[number]['kind'];

let dir: string;
let peer: SmtpPeer;
let smtpUrl: string;
let source: TestApp;
let restored: TestApp | undefined;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-backup-links-'));
  peer = new SmtpPeer();
  smtpUrl = await peer.listen();
  source = await createTestApp(
    {
      SMTP_URL: smtpUrl,
      ...(TEST_DIALECT === 'sqlite' ? { DATABASE_URL: `sqlite:${path.join(dir, 'source.db')}` } : {}),
    },
    { captchaMaxNumber: 2000 },
  );
});

afterAll(async () => {
  await restored?.close();
  await source?.close();
  await peer?.close();
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Whether an access link's token still opens its page, asked without using it up where the API allows. */
async function works(app: TestApp, kind: Kind, token: string): Promise<boolean> {
  const key = encodeURIComponent(token);
  const answer =
    kind === 'reset'
      ? await request(app.app, null, { method: 'GET', url: `/api/auth/check-password-reset?passwordResetToken=${key}` })
      : kind === 'invitation'
        ? await request(app.app, null, { method: 'GET', url: `/api/invitations/${key}` })
        : kind === 'signup'
          ? await request(app.app, null, { method: 'GET', url: `/api/signup/${key}` })
          : await request(app.app, null, { method: 'POST', url: '/api/auth/confirm-email', payload: { token } });
  expect(answer.statusCode, `${kind} ${answer.body}`).toBeLessThan(500);
  return answer.statusCode === 200;
}

/** The access links of the mails the SMTP peer received, by kind. */
async function mailedLinks(): Promise<{ kind: Kind; url: string; token: string }[]> {
  const links = [];
  for (const raw of peer.received) {
    const mail = await PostalMime.parse(raw);
    for (const url of new Set(`${mail.text ?? ''}\n${mail.html ?? ''}`.match(LINK) ?? [])) {
      for (const access of ACCESS) {
        const token = access.path.exec(url)?.[1];
        if (token) links.push({ kind: access.kind, url, token: decodeURIComponent(token) });
      }
    }
  }
  return links;
}

/** Sends one mail of each access kind; answers the addresses they go to. */
async function sendAccessMails(label: string, admin: string, customerId: number): Promise<string[]> {
  const { app } = source;
  const staff = `${label}-staff@example.com`;
  const created = await request(app, admin, {
    method: 'POST',
    url: '/api/users',
    payload: { email: staff, fullname: `${label} staff`, type: 'admin' },
  });
  expect(created.statusCode, created.body).toBe(201);

  const forgetful = await createUser(app.ctx.db, { email: `${label}-forgetful@example.com` });
  const reset = await request(app, null, {
    method: 'POST',
    url: '/api/auth/request-password-reset',
    remoteAddress: nextIp(),
    payload: { email: forgetful.email, recaptchaResponse: await solvedCaptcha(app) },
  });
  expect(reset.statusCode, reset.body).toBe(200);

  // with an Idempotency-Key: the answer kept for a replay is in the database too
  const invitee = `${label}-invitee@example.com`;
  const invited = await request(app, admin, {
    method: 'POST',
    url: '/api/invitations',
    headers: { 'idempotency-key': `${label}-invitation` },
    payload: { invitedEmail: invitee, invitedFullName: `${label} invitee`, targetCustomer: customerId },
  });
  expect(invited.statusCode, invited.body).toBe(201);

  const visitor = `${label}-visitor@example.com`;
  const signup = await request(app, null, {
    method: 'POST',
    url: '/api/signup',
    remoteAddress: nextIp(),
    payload: { email: visitor, firstName: 'Vera', lastName: label, companyName: `${label} Graphs`, jobTitle: 'CTO' },
  });
  expect(signup.statusCode, signup.body).toBe(200);

  const mover = await signedIn(app, 'client', { id: customerId, role: 'technicalContact' });
  const moved = `${label}-moved@example.com`;
  const change = await request(app, mover.cookie, {
    method: 'PATCH',
    url: '/api/auth/me',
    payload: { email: moved, currentPassword: TEST_PASSWORD },
  });
  expect(change.statusCode, change.body).toBe(200);
  return [staff, forgetful.email, invitee, visitor, moved];
}

describe('a backup and its links', () => {
  it('holds no working link, while the mailed links work before and after the restore', async () => {
    const { ctx } = source.app;
    const admin = (await signedIn(source.app, 'admin')).cookie;
    const customerId = (await createCustomer(ctx.db, { name: 'Links Analytics' })).id;

    // delivered: the SMTP peer holds them
    await sendAccessMails('delivered', admin, customerId);
    await ctx.jobs.drain();
    const delivered = await mailedLinks();
    expect(new Set(delivered.map((link) => link.kind))).toEqual(new Set(ACCESS.map((access) => access.kind)));
    // each works: a backup holding them would hold working links
    for (const link of delivered.filter((l) => l.kind !== 'emailChange')) {
      expect(await works(source, link.kind, link.token), link.url).toBe(true);
    }
    // queued: not delivered when the backup is taken
    const queuedTo = await sendAccessMails('queued', admin, customerId);
    const waiting = await ctx.db.selectFrom('mailOutbox').select('toAddress').where('status', '=', 'pending').execute();
    expect(waiting.map((row) => row.toAddress)).toEqual(expect.arrayContaining(queuedTo));

    const backupDir = path.join(dir, 'backup');
    await createBackup(ctx, { to: backupDir, progress: () => {} });
    let databaseUrl = `sqlite:${path.join(dir, 'restored.db')}`;
    if (TEST_DIALECT === 'postgres') {
      const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL as string, 'portal_links');
      cleanups.push(scratch.drop);
      databaseUrl = scratch.url;
    }
    const env = { DATABASE_URL: databaseUrl, ARTIFACTS_DIR: path.join(dir, 'restored-artifacts') };
    const target = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      BASE_URL,
      SESSION_SECRET,
      STATIC_DIR: './none',
      ...env,
    });
    await restoreBackup(target, { from: backupDir, progress: () => {} });

    // every URL of every column of every table of the restored database
    const handle = openDatabase(databaseUrl);
    const found = new Set<string>();
    let tables: string[];
    try {
      tables = await listTables(handle.db, handle.dialect);
      for (const table of tables) {
        for (const row of await allRows(handle.db, table)) {
          for (const url of JSON.stringify(row).match(LINK) ?? []) found.add(url);
        }
      }
    } finally {
      await handle.close();
    }
    expect(tables).toEqual(expect.arrayContaining(['mail_outbox', 'idempotency_keys', 'password_reset_tokens']));

    restored = await createTestApp({ ...env, SMTP_URL: smtpUrl });
    // none opens anything: no access link, and no other URL's parts taken as one
    for (const url of found) {
      const parts = new URL(url);
      const candidates = [
        ...parts.pathname.split('/').filter((part) => part.length >= 16),
        ...[...parts.searchParams.values()].filter((value) => value.length >= 16),
      ];
      for (const access of ACCESS) {
        expect(access.path.test(url), `an access link in the backup: ${url}`).toBe(false);
        for (const candidate of candidates) {
          expect(await works(restored, access.kind, decodeURIComponent(candidate)), url).toBe(false);
        }
      }
    }
    const text = [...found].join('\n');
    for (const link of delivered) expect(text).not.toContain(link.token);

    // the restored portal delivers the mails that were queued, and every mailed link works there
    peer.received = [];
    await restored.app.ctx.jobs.drain();
    const queued = await mailedLinks();
    expect(new Set(queued.map((link) => link.kind))).toEqual(new Set(ACCESS.map((access) => access.kind)));
    for (const link of [...delivered, ...queued]) {
      expect(await works(restored, link.kind, link.token), link.url).toBe(true);
    }
  });
});
