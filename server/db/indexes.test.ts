import { type KyselyPlugin, type RootOperationNode, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntriesAfter } from '../modules/audit/repo';
import { findUserByEmail } from '../modules/auth/repo';
import { hasDownloadedProduct, latestDownloadAt } from '../modules/downloads/repo';
import { findLicence, findLicenceIdOf } from '../modules/licences/repo';
import { countUnread, listNotifications } from '../modules/notifications/repo';
import { emailTaken } from '../modules/users/repo';
import { findVersions } from '../modules/search/repo';
import { createTestApp, type TestApp } from '../test/harness';
import { explain } from '../test/plans';
import type { DB } from '.';

let t: TestApp;
let db: DB;

beforeAll(async () => {
  t = await createTestApp();
  db = t.app.ctx.db;
});
afterAll(async () => t?.close());

const postgres = () => t.database.dialect === 'postgres';

interface ForeignKey {
  table: string;
  column: string;
}

async function foreignKeys(): Promise<ForeignKey[]> {
  if (postgres()) {
    const { rows } = await sql<ForeignKey>`
      select c.conrelid::regclass::text as "table", a.attname as "column"
      from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace`.execute(db.withoutPlugins());
    return rows;
  }
  const { rows } = await sql<ForeignKey>`
    select m.name as "table", f."from" as "column"
    from sqlite_master m, pragma_foreign_key_list(m.name) f
    where m.type = 'table'`.execute(db.withoutPlugins());
  return rows;
}

/** The first column of every index of every table (null for an index that starts with an expression). */
async function leadingColumns(): Promise<Set<string>> {
  if (postgres()) {
    const { rows } = await sql<{ table: string; column: string | null }>`
      select i.indrelid::regclass::text as "table", a.attname as "column"
      from pg_index i left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
      join pg_class c on c.oid = i.indrelid
      where c.relnamespace = 'public'::regnamespace`.execute(db.withoutPlugins());
    return new Set(rows.map((r) => `${r.table}.${r.column}`));
  }
  const { rows } = await sql<{ table: string; column: string | null }>`
    select m.name as "table", ii.name as "column"
    from sqlite_master m, pragma_index_list(m.name) il, pragma_index_info(il.name) ii
    where m.type = 'table' and ii.seqno = 0`.execute(db.withoutPlugins());
  return new Set(rows.map((r) => `${r.table}.${r.column}`));
}

/**
 * The plan of the statement a repository function runs (its last, or its first when it runs a page and
 * its count): it runs against a recording copy of the handle.
 */
async function planOf(run: (db: DB) => Promise<unknown>, which: 'first' | 'last' = 'last'): Promise<string> {
  const seen: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => (seen.push(node), node),
    transformResult: async ({ result }) => result,
  };
  await run(db.withPlugin(recorder));
  const node = which === 'first' ? seen[0] : seen[seen.length - 1];
  if (!node) throw new Error('the function ran no query');
  const compiled = db.getExecutor().compileQuery(node, { queryId: 'plan' });
  // a prepared query (server/db/prepared.ts) compiles with placeholders for its parameters: any value plans alike
  const parameters = compiled.parameters.map((value) => (typeof value === 'object' && value !== null ? 1 : value));
  return explain(db, { ...compiled, parameters });
}

/** The plan uses the index and reads no table whole (SQLite "SCAN t", PostgreSQL "Seq Scan"). */
function expectIndexed(plan: string, index: string) {
  expect(plan).toContain(index);
  expect(plan).not.toMatch(/^SCAN |Seq Scan/m);
}

describe('indexes', () => {
  it('every foreign key is the first column of an index, so joins and cascades do not scan', async () => {
    const keys = await foreignKeys();
    expect(keys.length).toBeGreaterThan(20);
    const leading = await leadingColumns();
    const unindexed = keys.map((k) => `${k.table}.${k.column}`).filter((k) => !leading.has(k));
    expect(unindexed).toEqual([]);
  });

  it('finds a user by e-mail, whatever its case, through the unique index on lower(email)', async () => {
    expectIndexed(await planOf((d) => findUserByEmail(d, 'Someone@Example.com')), 'users_email_lower_unique');
    expectIndexed(await planOf((d) => emailTaken(d, 'Someone@Example.com')), 'users_email_lower_unique');
  });

  it('answers "latest download of a licence" and "first download of a product by a customer" from indexes', async () => {
    expectIndexed(await planOf((d) => latestDownloadAt(d, 1)), 'downloads_licence_id_created_at_idx');
    // on empty tables PostgreSQL may pick either index of licences; both are look-ups, not scans
    expectIndexed(
      await planOf((d) => hasDownloadedProduct(d, 1, 'graph-server')),
      'downloads_licence_id_created_at_idx',
    );
  });

  it("finds a customer's licence of a product through the unique (customer, product) index of migration 006", async () => {
    expectIndexed(await planOf((d) => findLicenceIdOf(d, 1, 'graph-server')), 'licences_customer_product_unique');
    const names = postgres()
      ? (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'licences'`.execute(db))
          .rows
      : (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and tbl_name = 'licences'`.execute(db)
        ).rows;
    // the plain index it replaces is gone
    expect(names.map((r) => r.name)).not.toContain('licences_customer_id_product_key_idx');
    expect(names.map((r) => r.name)).toContain('licences_end_date_id_idx');
  });

  it('reads the notification centre newest first from (user, created_at, id), its unread count from (user, status)', async () => {
    // the page itself, the first of the two queries (its count comes second)
    const page = await planOf((d) => listNotifications(d, 1, { offset: 0, length: 10 }), 'first');
    expectIndexed(page, 'notifications_user_id_created_at_id_idx');
    // no sort step: the index gives the order (PostgreSQL, on an empty table, may rather sort its no rows)
    if (!postgres()) expect(page).not.toContain('TEMP B-TREE');
    // the count reads the index; SQLite's "SCAN capped" walks the capped subquery's few rows
    const unread = await planOf((d) => countUnread(d, 1, 1000));
    expect(unread).toContain('notifications_user_id_status_created_at_idx');
    expect(unread).not.toMatch(/^SCAN notifications|Seq Scan/m);
  });

  it("finds versions by the start of their semantic version through migration 030's index, in its order", async () => {
    const any = await planOf((d) => findVersions(d, '2.1', null, 5));
    expectIndexed(any, 'versions_sem_ver_prefix');
    if (!postgres()) expect(any).not.toContain('TEMP B-TREE');
    // within the products the other words name (the catalogue itself is read as is): the (product, sem_ver) pair
    const inProduct = await planOf((d) => findVersions(d, '2.1', 'graph', 5));
    expect(inProduct).toMatch(
      postgres()
        ? /versions_(product_)?sem_ver_prefix/
        : /versions_sem_ver_prefix|sqlite_autoindex_versions_\d \(product_key=\? AND sem_ver>\? AND sem_ver<\?\)/,
    );
    expect(inProduct).not.toMatch(/^SCAN versions|Seq Scan on versions/m);
  });

  it("reads a customer's recent actions, and those of one action, from the audit log's indexes", async () => {
    const cursor = { createdAt: '2026-01-01T00:00:00.000Z', id: 10 };
    // on an empty table PostgreSQL may read the unfiltered log from either index: both are look-ups
    const byCustomer = postgres() ? 'audit_log_customer_id_' : 'audit_log_customer_id_created_at_id_idx';
    for (const c of [null, cursor]) {
      expectIndexed(await planOf((d) => auditEntriesAfter(d, 1, { cursor: c, limit: 20 })), byCustomer);
      expectIndexed(
        await planOf((d) => auditEntriesAfter(d, 1, { action: 'downloadArtifact', cursor: c, limit: 20 })),
        'audit_log_customer_id_action_created_at_id_idx',
      );
    }
  });

  it("reads a licence's latest release with files from migration 033's index, newest first, without a sort", async () => {
    const plan = await planOf((d) => findLicence(d, 1));
    expect(plan).toContain('versions_product_published_release_idx');
    expect(plan).not.toMatch(/^SCAN versions|Seq Scan on versions|TEMP B-TREE|Sort/m);
  });
});
