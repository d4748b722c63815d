import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailRequest } from './types';
import { createTestApp, type TestApp } from '../test/harness';
import { createMailer } from './index';
import { LEASE_MS } from './outbox';
import type { OutgoingMail, Transport } from './transport';

/**
 * A mail being delivered when its process is killed: the restarted process sends it at once, another
 * node leaves it alone while the delivery may still run, and a mail marked sent never goes again.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** An SMTP peer as the mailer sees it: records deliveries; `hang` holds every delivery forever. */
function recordingTransport(hang = false): Transport & { delivered: OutgoingMail[]; started: number } {
  const transport = {
    kind: 'smtp' as const,
    delivered: [] as OutgoingMail[],
    started: 0,
    async deliver(mail: OutgoingMail) {
      transport.started++;
      if (hang) await new Promise(() => {});
      transport.delivered.push(mail);
    },
    close() {},
  };
  return transport;
}

const mailerOn = (node: string, transport: Transport) =>
  createMailer({ config: { ...t.config, nodeName: node }, db: t.app.ctx.db, log: t.app.log, transport });

const request = (to: string): MailRequest => ({
  to,
  template: 'passwordReset',
  locale: 'en',
  data: { fullName: 'K', link: 'http://portal.test/en/reset-password/tok', validityHours: 1 },
});

const rowFor = (to: string) =>
  t.app.ctx.db.selectFrom('mailOutbox').selectAll().where('toAddress', '=', to).executeTakeFirstOrThrow();

describe('outbox claims across a crash', () => {
  it('a restarted node sends at once the mail it was delivering when killed; another node waits', async () => {
    const killed = recordingTransport(true);
    const before = mailerOn('node-a', killed);
    await before.send(request('killed@example.com'));
    // the delivery starts and never ends: the process dies in it
    void before.flush();
    await expect.poll(() => killed.started).toBe(1);
    const claimed = await rowFor('killed@example.com');
    expect(claimed).toMatchObject({ status: 'pending', claimedBy: 'node-a' });
    expect(Date.parse(claimed.nextAttemptAt) - Date.now()).toBeGreaterThan(LEASE_MS - 60_000);

    // another node, while node-a might still be delivering, releases nothing and sends nothing
    const other = recordingTransport();
    const otherNode = mailerOn('node-b', other);
    expect(await otherNode.releaseOwnClaims()).toBe(0);
    expect(await otherNode.flush()).toBe(0);
    expect(other.delivered).toHaveLength(0);

    // node-a comes back: its claim is released and the mail goes, once
    const restarted = recordingTransport();
    const after = mailerOn('node-a', restarted);
    expect(await after.releaseOwnClaims()).toBe(1);
    expect(await after.flush()).toBe(1);
    expect(restarted.delivered.map((m) => m.to)).toEqual(['killed@example.com']);
    expect(await rowFor('killed@example.com')).toMatchObject({ status: 'sent', claimedBy: null });

    // and a later restart finds nothing to release: a sent mail never goes twice
    const again = recordingTransport();
    const third = mailerOn('node-a', again);
    expect(await third.releaseOwnClaims()).toBe(0);
    expect(await third.flush()).toBe(0);
    expect(again.delivered).toHaveLength(0);
  });

  it('the app releases its node’s claims when it starts', async () => {
    const killed = recordingTransport(true);
    const before = mailerOn(t.config.nodeName, killed);
    await before.send(request('app-restart@example.com'));
    void before.flush();
    await expect.poll(() => killed.started).toBe(1);
    const { buildApp } = await import('../app');
    const app = await buildApp(t.config, { database: t.database });
    try {
      await app.ready();
      await app.ctx.jobs.idle();
      expect(await rowFor('app-restart@example.com')).toMatchObject({ status: 'sent', claimedBy: null });
    } finally {
      await app.close();
    }
  });
});

describe('mail in the caller’s transaction', () => {
  it('leaves no outbox row when the transaction fails, and one when it commits', async () => {
    const { db, mail } = t.app.ctx;
    await expect(
      db.transaction().execute(async (trx) => {
        await mail.send(request('rolled-back@example.com'), trx);
        throw new Error('the change failed after its mail was written');
      }),
    ).rejects.toThrow('the change failed');
    expect(
      await db.selectFrom('mailOutbox').select('id').where('toAddress', '=', 'rolled-back@example.com').execute(),
    ).toHaveLength(0);

    await db.transaction().execute((trx) => mail.send(request('committed@example.com'), trx));
    expect(await rowFor('committed@example.com')).toMatchObject({ status: 'pending', template: 'passwordReset' });
  });
});
