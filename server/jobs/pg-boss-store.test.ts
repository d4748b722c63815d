import { createRequire } from 'node:module';
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { explain, PLAN_KIND as KIND } from '../test/plans';
import { createPgBossStore, PG_BOSS_SCHEMA } from './pg-boss-store';

/**
 * pg-boss's fetch reads the due jobs of a queue in its order from the portal's index on pgboss.job,
 * on the queues there were when the index was made and on those created after: with pg-boss's own
 * index alone every fetch sorted all the queue's due jobs, 78 ms a fetch with the daily run's 52,000
 * queued (decision 089). In the PostgreSQL pass only (vitest.config.ts).
 */
/** pg-boss's own statements, as its fetch runs them (a module of the package without types) */
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  fetchNextJob: (schema: string) => (options: { includeMetadata: boolean }) => string;
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const fetchPlan = (name: string) =>
  explain(t.database.db, CompiledQuery.raw(plans.fetchNextJob(PG_BOSS_SCHEMA)({ includeMetadata: true }), [name, 5]));

describe('the PostgreSQL job store', () => {
  it('fetches due jobs in their order from an index, without sorting the queue, on queues made before and after it', async () => {
    const { db } = t.database;
    const store = createPgBossStore(db);
    await store.prepare([KIND, { ...KIND, name: 'test.other' }]);
    const payloads = Array.from({ length: 3000 }, (_, n) => ({ n }));
    await store.insertMany(db, KIND, payloads);
    await store.insertMany(db, { ...KIND, name: 'test.other' }, payloads);
    await sql.raw(`analyze ${PG_BOSS_SCHEMA}.job`).execute(db);

    const fetched = await store.fetch(KIND, 5);
    expect(new Set(fetched.map((job) => job.id)).size).toBe(5);

    const plan = await fetchPlan(KIND.name);
    expect(plan).toMatch(/Index Scan using \S+ on j[0-9a-f]+ job/);
    // neither a sort of what it found nor pg-boss's index (name, start_after), which gives no order
    expect(plan).not.toMatch(/Sort Key: job\.priority|Bitmap/);

    // a queue created once the index is there (a kind added in a later version) has it too
    const later = createPgBossStore(db);
    await later.prepare([{ ...KIND, name: 'test.later' }]);
    await later.insertMany(db, { ...KIND, name: 'test.later' }, payloads);
    await sql.raw(`analyze ${PG_BOSS_SCHEMA}.job`).execute(db);
    const laterPlan = await fetchPlan('test.later');
    expect(laterPlan).toMatch(/Index Scan using \S+ on j[0-9a-f]+ job/);
    expect(laterPlan).not.toMatch(/Sort Key: job\.priority|Bitmap/);
    await store.close();
    await later.close();
  });
});
