import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { createInProcessRunner, MAIL_OUTBOX_JOB } from '../jobs';
import { createMailer } from './index';
import { LEASE_MS, MAX_ATTEMPTS, retryDelayMs } from './outbox';

/** A real SMTP peer: refuses recipients while `refusing`, keeps every message it accepts. */
class SmtpPeer {
  refusing = false;
  received: string[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (_address, _session, callback) => {
      if (!this.refusing) return callback();
      callback(Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 450 }));
    },
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        this.received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Enough MIME reading for a test: undo quoted-printable soft breaks and escapes. */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

let t: TestApp;
let peer: SmtpPeer;
let smtpUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  peer = new SmtpPeer();
  smtpUrl = await peer.listen();
});
afterAll(async () => {
  await peer?.close();
  await t?.close();
});
afterEach(async () => {
  peer.refusing = false;
  peer.received = [];
  await t.app.ctx.db.deleteFrom('mailOutbox').execute();
});

const smtpMailer = () => createMailer({ config: { ...t.config, smtpUrl }, db: t.app.ctx.db, log: t.app.log });
const outbox = () => t.app.ctx.db.selectFrom('mailOutbox').selectAll().orderBy('id').execute();
const makeDue = () =>
  t.app.ctx.db
    .updateTable('mailOutbox')
    .set({ nextAttemptAt: new Date(0).toISOString() })
    .execute();
const link = 'http://portal.test/en/reset-password/abcdefghijklmnopqrstuvwxyz0123456789_-ABCDEFG';

describe('mail outbox over SMTP', () => {
  it('keeps a refused mail pending with the error, retries later, then delivers it', async () => {
    const mailer = smtpMailer();
    await mailer.send({
      to: 'retry@example.com',
      template: 'passwordReset',
      locale: 'en',
      data: { fullName: 'Rae', link, validityHours: 1 },
    });
    const [stored] = await outbox();
    expect(stored).toMatchObject({
      status: 'pending',
      attempts: 0,
      subject: 'Reset your password',
      template: 'passwordReset',
    });

    peer.refusing = true;
    const before = Date.now();
    expect(await mailer.flush()).toBe(0);
    const [failed] = await outbox();
    expect(failed.status).toBe('pending');
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toMatch(/Mailbox temporarily unavailable/);
    expect(failed.sentAt).toBeNull();
    const delay = Date.parse(failed.nextAttemptAt) - before;
    expect(delay).toBeGreaterThanOrEqual(retryDelayMs(1) - 1000);
    expect(delay).toBeLessThanOrEqual(retryDelayMs(1) + 5000);

    // Not due yet: nothing happens.
    peer.refusing = false;
    expect(await mailer.flush()).toBe(0);
    expect(peer.received).toHaveLength(0);

    await makeDue();
    expect(await mailer.flush()).toBe(1);
    const [sent] = await outbox();
    expect(sent.status).toBe('sent');
    expect(sent.sentAt).toBeTruthy();
    expect(sent.lastError).toBeNull();
    expect(sent.attempts).toBe(1);

    expect(peer.received).toHaveLength(1);
    const message = peer.received[0];
    expect(message).toMatch(/^Subject: Reset your password\r?$/m);
    expect(message).toMatch(/^To: retry@example.com\r?$/m);
    expect(decodeQuotedPrintable(message)).toContain(link);
    await mailer.close();
  });

  it('gives up after the last attempt', async () => {
    const mailer = smtpMailer();
    await mailer.send({
      to: 'never@example.com',
      template: 'passwordReset',
      locale: 'en',
      data: { fullName: 'N', link, validityHours: 1 },
    });
    await t.app.ctx.db
      .updateTable('mailOutbox')
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .execute();
    peer.refusing = true;
    await mailer.flush();
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    await makeDue();
    expect(await mailer.flush()).toBe(0);
    await mailer.close();
  });

  it('two nodes flushing at once deliver each mail once', async () => {
    const a = smtpMailer();
    const b = smtpMailer();
    for (let i = 0; i < 6; i++) {
      await a.send({
        to: `many-${i}@example.com`,
        template: 'accountCreated',
        locale: 'en',
        data: { fullName: `M${i}`, link, validityHours: 1 },
      });
    }
    const [sentA, sentB] = await Promise.all([a.flush(), b.flush()]);
    expect(sentA + sentB).toBe(6);
    expect(peer.received).toHaveLength(6);
    expect((await outbox()).every((r) => r.status === 'sent')).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it('leaves alone a mail another node has claimed', async () => {
    const mailer = smtpMailer();
    await mailer.send({
      to: 'claimed@example.com',
      template: 'passwordReset',
      locale: 'en',
      data: { fullName: 'C', link, validityHours: 1 },
    });
    const lease = new Date(Date.now() + LEASE_MS).toISOString();
    await t.app.ctx.db.updateTable('mailOutbox').set({ nextAttemptAt: lease }).execute();
    expect(await mailer.flush()).toBe(0);
    expect(peer.received).toHaveLength(0);
    await mailer.close();
  });

  it('the outbox job sends a mail soon after send()', async () => {
    const jobs = createInProcessRunner(t.app.log);
    const mailer = createMailer({
      config: { ...t.config, smtpUrl },
      db: t.app.ctx.db,
      log: t.app.log,
      onQueued: () => jobs.trigger(MAIL_OUTBOX_JOB),
    });
    // a long interval: only the trigger from send() can deliver within the test
    jobs.schedule({ name: MAIL_OUTBOX_JOB, everyMs: 3_600_000, run: () => mailer.flush() });
    jobs.start({ ...t.app.ctx, mail: mailer });
    await jobs.idle();
    await mailer.send({
      to: 'prompt@example.com',
      template: 'passwordReset',
      locale: 'fr',
      data: { fullName: 'P', link, validityHours: 1 },
    });
    await jobs.idle();
    await jobs.stop();
    await mailer.close();
    expect(peer.received).toHaveLength(1);
    // The French subject travels encoded; its text is there once decoded.
    const [row] = await outbox();
    expect(row).toMatchObject({ status: 'sent', subject: 'Réinitialisez votre mot de passe' });
  });
});

describe('local mailbox transport', () => {
  it('marks mails sent and keeps them in the outbox', async () => {
    const mailer = createMailer({ config: { ...t.config, smtpUrl: null }, db: t.app.ctx.db, log: t.app.log });
    await mailer.send({
      to: 'local@example.com',
      template: 'accountCreated',
      locale: 'en',
      data: { fullName: 'L', link, validityHours: 1 },
    });
    expect(await mailer.flush()).toBe(1);
    const [row] = await outbox();
    expect(row).toMatchObject({
      status: 'sent',
      toAddress: 'local@example.com',
      subject: 'Your account on the customer portal',
    });
    await mailer.close();
  });
});
