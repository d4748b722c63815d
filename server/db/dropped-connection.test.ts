import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';

/**
 * A PostgreSQL connection that the server ends while the portal holds it between two statements (in
 * a transaction, a job's work) must not end the process: the pool only listens to its idle
 * connections, and a held one's error, unheard, would be thrown. Seen when PostgreSQL restarted under
 * a running portal (server/db/outage.test.ts). PostgreSQL pass only (vitest.config.ts).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('a connection ended by the server while held', () => {
  it('fails its holder’s next statement, is reported, and the portal goes on with new connections', async () => {
    const reported: string[] = [];
    t.database.onConnectionError((error) => reported.push(error.message));
    const { db } = t.app.ctx;
    await db.connection().execute(async (held) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(held);
      // ended from another connection while this one runs nothing
      await sql`select pg_terminate_backend(${rows[0].pid})`.execute(db);
      const deadline = Date.now() + 5_000;
      while (reported.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reported.join()).toMatch(/terminat/i);
      await expect(sql`select 1`.execute(held)).rejects.toThrow();
    });
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
