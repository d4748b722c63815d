import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createContext } from '../compose';
import type { AppContext } from '../context';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db';
import { freePort, type Started, start, waitForHealth } from '../test/main-process';

/**
 * A portal process killed (SIGKILL) in the middle of handing a mail to the SMTP server: once it runs
 * again, the mail is delivered, with the Message-ID it had (decision 063: at least once, a replay
 * carries the same Message-ID). SQLite files, whatever TEST_DB says.
 */
let dir: string;
let port: number;
let portal: Started | null = null;
let database: DatabaseHandle | null = null;

/** An SMTP server that keeps the first message's DATA unanswered until told, and accepts the others. */
class StallingPeer {
  received: string[] = [];
  stalled: (() => void) | null = null;
  sawData = false;
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (!this.sawData) {
          // the first: read, never answered (the sender dies waiting for the 250)
          this.sawData = true;
          this.stalled = () => callback(new Error('gone'));
          return;
        }
        this.received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.server.address() as AddressInfo).port;
  }
  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let peer: StallingPeer;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-mail-crash-'));
  port = await freePort();
  peer = new StallingPeer();
});
afterAll(async () => {
  portal?.child.kill('SIGKILL');
  await portal?.exited;
  await database?.close();
  await peer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a portal killed while it sends a mail', () => {
  it('delivers the mail once it runs again, with the same Message-ID', async () => {
    const smtpPort = await peer.listen();
    const env = {
      PORT: String(port),
      DATABASE_URL: `sqlite:${path.join(dir, 'portal.db')}`,
      STATIC_DIR: path.join(dir, 'no-client'),
      DATA_DIR: dir,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      // the mail's body is sealed under it: the portal opens what the command line queued
      SESSION_SECRET: 'crash-test-session-secret-long-enough-00',
    };
    portal = start(env);
    await waitForHealth(port, portal);

    // another process of the same portal (as the command line is) queues a mail
    const config = loadConfig({ ...env, NODE_ENV: 'test' });
    database = openDatabase(config.databaseUrl);
    await migrateToLatest(database);
    const silent = { info() {}, warn() {}, error() {}, debug() {} } as unknown as AppContext['log'];
    const ctx = createContext({ config, database, log: silent });
    await ctx.jobs.prepare();
    await ctx.mail.send({
      to: 'in-flight@example.com',
      template: 'passwordReset',
      locale: 'en',
      data: { fullName: 'In Flight', link: 'http://portal.test/en/reset-password/x', validityHours: 1 },
    });

    // the portal's job hands it over; it dies before the server's answer
    const deadline = Date.now() + 20_000;
    while (!peer.sawData && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(peer.sawData).toBe(true);
    portal.child.kill('SIGKILL');
    await portal.exited;
    peer.stalled?.();
    expect(peer.received).toHaveLength(0);

    portal = start(env);
    await waitForHealth(port, portal);
    const until = Date.now() + 20_000;
    while (peer.received.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(peer.received).toHaveLength(1);
    const outbox = () =>
      ctx.db.selectFrom('mailOutbox').select(['id', 'status', 'createdAt']).executeTakeFirstOrThrow();
    // marked sent once the server said it took it
    while ((await outbox()).status !== 'sent' && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const row = await outbox();
    expect(row.status).toBe('sent');
    expect(peer.received[0]).toMatch(
      new RegExp(`^Message-ID: <mail-${row.id}\\.${Date.parse(row.createdAt)}@[^>]+>\\r?$`, 'm'),
    );
  }, 90_000);
});
