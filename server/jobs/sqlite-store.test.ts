import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../db';
import { explain, PLAN_KIND as KIND } from '../test/plans';
import { createSqliteStore } from './sqlite-store';

/**
 * The SQLite store's fetch reads the due jobs of one kind from the partial index `jobs_due_idx`
 * (migration 021), whatever else the queue holds: with the states passed as parameters SQLite cannot
 * tell that the query stays within the index's rows, and every fetch scanned and sorted the whole
 * queue (decision 089). SQLite files, whatever TEST_DB says.
 */

let dir: string;
let handle: DatabaseHandle;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-jobs-plan-'));
  handle = openDatabase(`sqlite:${path.join(dir, 'portal.db')}`);
  await migrateToLatest(handle);
});
afterAll(async () => {
  await handle?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the SQLite job store', () => {
  it('fetches due jobs through jobs_due_idx, in order, without reading the rest of the queue', async () => {
    const store = createSqliteStore(handle.db);
    // a queue as a backlog leaves it: many waiting jobs of this kind and another, many finished
    await store.insertMany(
      handle.db,
      KIND,
      Array.from({ length: 3000 }, (_, n) => ({ n })),
    );
    await store.insertMany(
      handle.db,
      { ...KIND, name: 'test.other' },
      Array.from({ length: 3000 }, (_, n) => ({ n })),
    );
    await sql`update jobs set state = 'completed', completed_at = created_at where id % 3 = 0`.execute(handle.db);
    await sql`analyze`.execute(handle.db);

    const seen: RootOperationNode[] = [];
    const recorder: KyselyPlugin = {
      transformQuery: ({ node }) => (seen.push(node), node),
      transformResult: async ({ result }) => result,
    };
    const fetched = await createSqliteStore(handle.db.withPlugin(recorder)).fetch(KIND, 5);
    // the longest waiting first, each once
    expect(fetched.map((job) => (job.payload as { n: number }).n)).toEqual([0, 1, 3, 4, 6]);
    // the statement run (its subquery passes the plugin too)
    const statements = seen.filter((node) => node.kind === 'UpdateQueryNode');
    expect(statements).toHaveLength(1);
    const plan = await explain(handle.db, handle.db.getExecutor().compileQuery(statements[0], { queryId: 'plan' }));
    expect(plan).toMatch(/SEARCH jobs USING (COVERING )?INDEX jobs_due_idx \(name=\? AND run_at<\?\)/);
    // neither a scan of the table nor a sort of what it found
    expect(plan).not.toMatch(/SCAN jobs|TEMP B-TREE/);
  });
});
