import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { storeFor } from '../jobs';
import { createJobRunner } from '../jobs/runner';
import { createTestApp, type TestApp } from '../test/harness';
import { makeJobsDue } from '../test/jobs';
import { decodeQuotedPrintable, SmtpPeer } from '../test/smtp-peer';
import { openMailBody, sealMailBody, sealPlainOutboxBodies } from './body';
import { createMailer, MAIL_DELIVERY_JOB } from './index';

let t: TestApp;
let peer: SmtpPeer;
let smtpUrl: string;
beforeAll(async () => {
  peer = new SmtpPeer();
  smtpUrl = await peer.listen();
  t = await createTestApp({ SMTP_URL: smtpUrl });
});
afterAll(async () => {
  await t?.close();
  await peer?.close();
});
afterEach(async () => {
  peer.refusing = false;
  peer.received = [];
  await t.app.ctx.db.deleteFrom('mailOutbox').execute();
});

const outbox = () => t.app.ctx.db.selectFrom('mailOutbox').selectAll().orderBy('id').execute();
const messageIdOf = (message: string) => /^Message-ID: (.*?)\r?$/im.exec(message)?.[1];
const link = 'http://portal.test/en/reset-password/abcdefghijklmnopqrstuvwxyz0123456789_-ABCDEFG';
const resetMail = (to: string, locale: 'en' | 'fr' = 'en') =>
  ({ to, template: 'passwordReset', locale, data: { fullName: 'Rae', link, validityHours: 1 } }) as const;

describe('mail outbox over SMTP', () => {
  it('queues a mail with the change that causes it, and not without it', async () => {
    const { ctx } = t.app;
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await ctx.mail.send(resetMail('rolled-back@example.com'), trx);
        throw new Error('the change failed');
      })
      .catch(() => {});
    expect(await outbox()).toEqual([]);
    expect(await ctx.jobs.drain()).toBe(0);
    expect(peer.received).toHaveLength(0);
  });

  it('keeps a refused mail pending with the error, retries it later, then delivers it', async () => {
    const { ctx } = t.app;
    await ctx.mail.send(resetMail('retry@example.com'));
    const [stored] = await outbox();
    expect(stored).toMatchObject({
      status: 'pending',
      attempts: 0,
      subject: 'Reset your password',
      template: 'passwordReset',
    });

    peer.refusing = 450;
    expect(await ctx.jobs.drain()).toBe(1);
    const [failed] = await outbox();
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(failed.lastError).toMatch(/Mailbox temporarily unavailable/);

    // Not due yet (30 s at least): nothing happens.
    peer.refusing = false;
    expect(await ctx.jobs.drain()).toBe(0);
    expect(peer.received).toHaveLength(0);

    await makeJobsDue(t.app.ctx.db, MAIL_DELIVERY_JOB);
    expect(await ctx.jobs.drain()).toBe(1);
    const [sent] = await outbox();
    expect(sent).toMatchObject({ status: 'sent', lastError: null, attempts: 2 });
    expect(sent.sentAt).toBeTruthy();

    expect(peer.received).toHaveLength(1);
    const message = peer.received[0];
    expect(message).toMatch(/^Subject: Reset your password\r?$/m);
    expect(message).toMatch(/^To: retry@example.com\r?$/m);
    expect(messageIdOf(message)).toBe(`<mail-${sent.id}.${Date.parse(sent.createdAt)}@portal.test>`);
    expect(decodeQuotedPrintable(message)).toContain(link);
  });

  it('delivers every queued mail once when an SMTP server that was down comes back', async () => {
    const down = new SmtpPeer();
    const port = Number(new URL(await down.listen()).port);
    await down.close();
    const app = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const back = new SmtpPeer();
    try {
      for (let i = 0; i < 5; i++) await app.app.ctx.mail.send(resetMail(`outage-${i}@example.com`));
      // nothing listens: every attempt fails and waits for its retry
      expect(await app.app.ctx.jobs.drain()).toBe(5);
      await makeJobsDue(app.app.ctx.db, MAIL_DELIVERY_JOB);
      expect(await app.app.ctx.jobs.drain()).toBe(5);
      const rows = await app.app.ctx.db.selectFrom('mailOutbox').select(['status', 'attempts', 'lastError']).execute();
      expect(
        rows.every((row) => row.status === 'pending' && row.attempts === 2 && /ECONNREFUSED/.test(row.lastError ?? '')),
      ).toBe(true);

      await back.listen(port);
      await makeJobsDue(app.app.ctx.db, MAIL_DELIVERY_JOB);
      expect(await app.app.ctx.jobs.drain()).toBe(5);
      await makeJobsDue(app.app.ctx.db, MAIL_DELIVERY_JOB);
      expect(await app.app.ctx.jobs.drain()).toBe(0);
      const to = back.received.map((message) => /^To: (.*?)\r?$/m.exec(message)?.[1]).sort();
      expect(to).toEqual(Array.from({ length: 5 }, (_, i) => `outage-${i}@example.com`));
    } finally {
      await app.close();
      await back.close();
    }
  });

  it('fails a mail refused for good at once, without retrying it', async () => {
    const { ctx } = t.app;
    await ctx.mail.send(resetMail('nobody@example.com'));
    peer.refusing = 550;
    // the delivery, then the telling of the bounce (to nobody here: no customer has this address)
    expect(await ctx.jobs.drain()).toBe(2);
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'failed', attempts: 1, bodySealed: null, textBody: '', htmlBody: null });
    expect(row.lastError).toMatch(/No such user here/);
    await makeJobsDue(t.app.ctx.db, MAIL_DELIVERY_JOB);
    expect(await ctx.jobs.drain()).toBe(0);
  });

  it('gives up after the last attempt', async () => {
    const { ctx } = t.app;
    await ctx.mail.send(resetMail('never@example.com'));
    peer.refusing = 450;
    let attempts = 0;
    for (;;) {
      const ran = await ctx.jobs.drain();
      if (ran === 0) break;
      attempts += ran;
      await makeJobsDue(t.app.ctx.db, MAIL_DELIVERY_JOB);
    }
    // 10 delivery attempts in all (server/job-kinds.ts), then the telling of the bounce
    expect(attempts).toBe(11);
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'failed', attempts: 10, bodySealed: null });
    expect(row.lastError).toMatch(/Mailbox temporarily unavailable/);
    const failed = await ctx.jobs.failed({ limit: 5, offset: 0, name: MAIL_DELIVERY_JOB });
    expect(failed.items.map((job) => job.payload)).toContainEqual({ mailId: row.id });
  });

  it("keeps a mail's body sealed while it waits and drops it once the SMTP peer took it", async () => {
    const { ctx } = t.app;
    await ctx.mail.send(resetMail('sealed@example.com'));
    const [waiting] = await outbox();
    // no column holds the link: the body opens only under the server secret
    expect(JSON.stringify(waiting)).not.toContain('reset-password');
    expect(waiting).toMatchObject({ textBody: '', htmlBody: null });
    expect(openMailBody(t.config.sealSecrets, waiting)?.text).toContain(link);
    expect(openMailBody(['another-secret-that-sealed-nothing-000000'], waiting)).toBeNull();

    expect(await ctx.jobs.drain()).toBe(1);
    const [sent] = await outbox();
    // what the recent actions and a bounce name stays; the body is gone
    expect(sent).toMatchObject({
      status: 'sent',
      toAddress: 'sealed@example.com',
      subject: 'Reset your password',
      template: 'passwordReset',
      bodySealed: null,
      textBody: '',
      htmlBody: null,
    });
    expect(decodeQuotedPrintable(peer.received[0])).toContain(link);
  });

  it('fails a mail whose body opens under none of the secrets, and tells of it', async () => {
    const { ctx } = t.app;
    await ctx.mail.send(resetMail('moved@example.com'));
    const [row] = await outbox();
    const other = sealMailBody('another-secret-that-sealed-nothing-000000', { text: 'x', html: null });
    await ctx.db.updateTable('mailOutbox').set({ bodySealed: other }).where('id', '=', row.id).execute();
    expect(await ctx.mail.deliver(row.id)).toBe('refused');
    const [failed] = await outbox();
    expect(failed).toMatchObject({ status: 'failed', bodySealed: null });
    expect(failed.lastError).toMatch(/opens under none of the secrets/);
    expect(peer.received).toHaveLength(0);
  });

  it('delivers a replay with the same Message-ID, and nothing for a mail already sent', async () => {
    const { ctx } = t.app;
    await ctx.mail.send(resetMail('replay@example.com'));
    const [row] = await outbox();
    expect(row.bodySealed).toBeTruthy();
    expect(await ctx.mail.deliver(row.id)).toBe('sent');
    // as if the process died after the SMTP peer took it, before the row said so (and lost its body)
    await ctx.db
      .updateTable('mailOutbox')
      .set({ status: 'pending', bodySealed: row.bodySealed })
      .where('id', '=', row.id)
      .execute();
    expect(await ctx.mail.deliver(row.id)).toBe('sent');
    expect(await ctx.mail.deliver(row.id)).toBe('skipped');
    expect(peer.received).toHaveLength(2);
    expect(messageIdOf(peer.received[0])).toBeTruthy();
    expect(messageIdOf(peer.received[1])).toBe(messageIdOf(peer.received[0]));
  });

  it('two nodes deliver each mail once', async () => {
    const { ctx } = t.app;
    for (let i = 0; i < 12; i++) await ctx.mail.send(resetMail(`many-${i}@example.com`));
    const node = () => {
      const jobs = createJobRunner({
        store: storeFor(t.database),
        log: t.app.log,
        context: () => ({ ...ctx, jobs }),
        pollMs: 20,
      });
      const mail = createMailer({ config: t.config, db: ctx.db, log: t.app.log, jobs });
      jobs.define({
        name: MAIL_DELIVERY_JOB,
        concurrency: 4,
        run: async (_ctx, _actor, { mailId }) => mail.deliver(mailId),
      });
      return { jobs, mail };
    };
    const a = node();
    const b = node();
    await Promise.all([a.jobs.start(), b.jobs.start()]);
    const end = Date.now() + 10_000;
    while ((await outbox()).some((row) => row.status !== 'sent') && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await Promise.all([a.jobs.stop(), b.jobs.stop()]);
    await Promise.all([a.mail.close(), b.mail.close()]);
    expect((await outbox()).every((row) => row.status === 'sent')).toBe(true);
    expect(peer.received).toHaveLength(12);
  });

  it('a started portal delivers a mail soon after it is queued', async () => {
    const app = await buildApp(t.config, { database: t.database });
    try {
      await app.ready();
      await app.ctx.mail.send(resetMail('prompt@example.com', 'fr'));
      const end = Date.now() + 5_000;
      while (peer.received.length === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await app.close();
    }
    expect(peer.received).toHaveLength(1);
    // The French subject travels encoded; its text is there once decoded.
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'sent', subject: 'Réinitialisez votre mot de passe' });
  });
});

describe('local mailbox transport', () => {
  it('marks mails sent and keeps them in the outbox', async () => {
    const app = await createTestApp({}, { smtpUrl: null });
    try {
      await app.app.ctx.mail.send({
        to: 'local@example.com',
        template: 'accountCreated',
        locale: 'en',
        data: { fullName: 'L', link, validityHours: 1 },
      });
      expect(await app.app.ctx.jobs.drain()).toBe(1);
      const [row] = await app.app.ctx.db.selectFrom('mailOutbox').selectAll().execute();
      expect(row).toMatchObject({
        status: 'sent',
        toAddress: 'local@example.com',
        subject: 'Your account on the customer portal',
      });
      // kept, sealed, for the mailbox page
      expect(JSON.stringify(row)).not.toContain(link);
      expect(openMailBody(app.config.sealSecrets, row)?.text).toContain(link);
    } finally {
      await app.close();
    }
  });
});

describe('mails queued before the bodies were sealed', () => {
  it('are sealed at the next start and delivered', async () => {
    const { ctx } = t.app;
    const { id } = await ctx.db
      .insertInto('mailOutbox')
      .values({
        toAddress: 'legacy@example.com',
        subject: 'Reset your password',
        textBody: `Choose a password: ${link}`,
        htmlBody: null,
        bodySealed: null,
        template: 'passwordReset',
        listUnsubscribe: null,
        status: 'pending',
        attempts: 0,
        lastError: null,
        createdAt: new Date().toISOString(),
        sentAt: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await sealPlainOutboxBodies(ctx.db, t.config.sessionSecret)).toBe(1);
    const [row] = await outbox();
    expect(JSON.stringify(row)).not.toContain(link);
    expect(await sealPlainOutboxBodies(ctx.db, t.config.sessionSecret)).toBe(0);
    expect(await ctx.mail.deliver(id)).toBe('sent');
    expect(decodeQuotedPrintable(peer.received[0])).toContain(link);
  });
});
