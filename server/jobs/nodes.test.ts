import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { addMonths, utcToday } from '../../common/licence-status';
import { migrateToLatest, openDatabase } from '../db';
import { addMembership, createCustomer, createLicence, createProduct, createUser } from '../test/factories';
import { scratchPostgres } from '../test/scratch-postgres';
import { freePort, type Started, start, waitForHealth } from '../test/main-process';
import { LICENCE_EXPIRY_SCHEDULE } from '../modules/notifications/expiry';

/**
 * Two portal processes on one PostgreSQL database, as two app nodes behind a load balancer: a slot of
 * a schedule both see due (here the daily licence end run, missed while both were down) runs on one of
 * them, and what it tells is told once (decision 063). In the PostgreSQL pass only (vitest.config.ts).
 */
const portals: Started[] = [];
let drop: (() => Promise<void>) | null = null;
const dirs: string[] = [];
afterAll(async () => {
  for (const portal of portals) {
    portal.child.kill('SIGKILL');
    await portal.exited;
  }
  await drop?.();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('two app nodes on one PostgreSQL', () => {
  it('run a schedule’s slot once, and tell its notices once', async () => {
    const scratch = await scratchPostgres(process.env.TEST_DATABASE_URL!, 'portal_nodes');
    drop = scratch.drop;
    const databaseUrl = scratch.url;
    const database = openDatabase(databaseUrl);
    try {
      await migrateToLatest(database);
      const { db } = database;
      const product = await createProduct(db, { name: 'Shared Product' });
      const customer = await createCustomer(db, { name: 'Shared Corp' });
      await createLicence(db, customer.id, product.key, { endDate: addMonths(utcToday(), 1) });
      for (let i = 0; i < 3; i++) {
        const user = await createUser(db, { type: 'client' });
        await addMembership(db, user.id, customer.id, 'businessOwner');
      }

      // both nodes start together; the run of the end notices is due (its slot passed while down)
      const ports = [await freePort(), await freePort()];
      for (const port of ports) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-node-'));
        dirs.push(dir);
        portals.push(
          start({
            PORT: String(port),
            DATABASE_URL: databaseUrl,
            STATIC_DIR: path.join(dir, 'no-client'),
            DATA_DIR: dir,
            SEED_DEMO_DATA: 'false',
            LOG_LEVEL: 'warn',
          }),
        );
      }
      await Promise.all(ports.map((port, i) => waitForHealth(port, portals[i])));
      const runs = async () =>
        (
          await sql<{
            runs: number;
          }>`select count(*)::int as runs from pgboss.job where name = ${LICENCE_EXPIRY_SCHEDULE}`.execute(db)
        ).rows[0].runs;
      const sent = () =>
        db
          .selectFrom('mailOutbox')
          .select(['toAddress', 'status'])
          .where('template', '=', 'licenseExpiresSoon')
          .where('status', '=', 'sent')
          .execute();
      const waitFor = async (check: () => Promise<boolean>) => {
        const deadline = Date.now() + 30_000;
        while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      };

      // The first start saw the schedule for the first time and ran it on one node: its notice told
      // the three members once.
      await waitFor(async () => (await sent()).length >= 3);
      // a little longer: a second run, fan-out or delivery, if any, would add mails now
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await runs()).toBe(1);
      expect(await sent()).toHaveLength(3);

      // Both nodes were down over the next slot: move it into the past and forget the notices, while
      // both run. The missed slot runs once, on one node.
      await db.deleteFrom('licenceExpiryNotices').execute();
      await db.deleteFrom('mailOutbox').execute();
      await db.deleteFrom('notifications').execute();
      await db
        .updateTable('jobSchedules')
        .set({ nextRunAt: new Date(Date.now() - 3600_000).toISOString() })
        .where('name', '=', LICENCE_EXPIRY_SCHEDULE)
        .execute();
      await waitFor(async () => (await sent()).length >= 3);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await runs()).toBe(2);
      const mails = await sent();
      expect(mails).toHaveLength(3);
      expect(new Set(mails.map((m) => m.toAddress)).size).toBe(3);
      expect(await db.selectFrom('licenceExpiryNotices').selectAll().execute()).toHaveLength(1);
      expect(await db.selectFrom('notifications').select('userId').execute()).toHaveLength(3);
    } finally {
      await database.close();
    }
  }, 120_000);
});
