import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_ERRORS, type DownloadAnalytics } from '../../../common/api/analytics';
import { addDays, utcToday } from '../../../common/licence-status';
import type { Platform } from '../../../common/domain';
import { backfillDownloadAnalytics } from '../../db/migrations/012_download_analytics';
import { backfillDownloadsToDate } from '../../db/migrations/014_downloads_to_date';
import { recordDownload } from '../downloads/repo';
import { createCustomer, createLicence, createProduct, createVersion, signedIn } from '../../test/factories';
import { createTestApp, request, type TestApp } from '../../test/harness';
import { explain } from '../../test/plans';
import type { DB } from '../../db';
import * as repo from './repo';

let t: TestApp;
let pm: string;
let admin: string;
let support: string;
const customers = {} as Record<'a' | 'b' | 'c', { id: number }>;
const licences = {} as Record<'aAlpha' | 'bAlpha' | 'cAlpha' | 'aBeta', { id: number }>;
const versions = {} as Record<'alpha1' | 'alpha11' | 'alpha2' | 'alphaPre' | 'beta09', { id: number }>;

const download = (licence: { id: number }, version: { id: number }, platform: Platform, createdAt: string) =>
  recordDownload(t.app.ctx.db, {
    licenceId: licence.id,
    versionId: version.id,
    artifactId: null,
    userId: null,
    ip: null,
    platform,
    createdAt,
  });

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  await createProduct(db, { key: 'alpha', name: 'Alpha' });
  await createProduct(db, { key: 'beta', name: 'Beta' });
  customers.a = await createCustomer(db, { name: 'Acme' });
  customers.b = await createCustomer(db, { name: 'Bolt' });
  customers.c = await createCustomer(db, { name: 'Cobalt' });
  licences.aAlpha = await createLicence(db, customers.a.id, 'alpha');
  licences.bAlpha = await createLicence(db, customers.b.id, 'alpha');
  licences.cAlpha = await createLicence(db, customers.c.id, 'alpha');
  licences.aBeta = await createLicence(db, customers.a.id, 'beta');
  versions.alpha1 = await createVersion(db, 'alpha', { semVer: '1.0.0' });
  versions.alpha11 = await createVersion(db, 'alpha', { semVer: '1.10.0' });
  versions.alpha2 = await createVersion(db, 'alpha', { semVer: '2.0.0' });
  versions.alphaPre = await createVersion(db, 'alpha', { semVer: '3.0.0-beta.1', type: 'beta' });
  versions.beta09 = await createVersion(db, 'beta', { semVer: '0.9.0' });
  // 2.0.0 is not published yet: 1.10.0 is the latest (after 1.0.0 although "1.10" < "1.9" as text)
  await db.updateTable('versions').set({ published: 0 }).where('id', '=', versions.alpha2.id).execute();

  await download(licences.aAlpha, versions.alpha1, 'linux', '2026-03-01T10:00:00.000Z');
  // the last instant of 1 March is still 1 March in UTC; the first of 2 March is not
  await download(licences.aAlpha, versions.alpha11, 'windows', '2026-03-01T23:59:59.999Z');
  await download(licences.bAlpha, versions.alpha11, 'linux', '2026-03-02T00:00:00.000Z');
  await download(licences.bAlpha, versions.alpha11, 'linux', '2026-03-02T12:00:00.000Z');
  await download(licences.aBeta, versions.beta09, 'npm', '2026-03-03T09:00:00.000Z');
  await download(licences.cAlpha, versions.alpha1, 'osx', '2026-03-05T08:00:00.000Z');
  // recorded after the others but earlier: Cobalt's first download of Alpha is before the range
  await download(licences.cAlpha, versions.alpha11, 'linux', '2026-02-28T23:59:59.999Z');

  pm = (await signedIn(t.app, 'productManager')).cookie;
  admin = (await signedIn(t.app, 'admin')).cookie;
  support = (await signedIn(t.app, 'supportEngineer')).cookie;
});
afterAll(async () => t?.close());

const get = (cookie: string | null, query: string) =>
  request(t.app, cookie, { method: 'GET', url: `/api/analytics/downloads${query}` });

async function analytics(query: string, cookie = pm): Promise<DownloadAnalytics> {
  const response = await get(cookie, query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const totals = (b: DownloadAnalytics['breakdowns']['product']) => b.series.map((s) => [s.label, s.total]);

describe('GET /api/analytics/downloads', () => {
  it('is for product managers and admins', async () => {
    expect((await get(null, '')).statusCode).toBe(401);
    expect((await get(support, '')).statusCode).toBe(403);
    expect((await get(admin, '')).statusCode).toBe(200);
  });

  it('counts the downloads of the range per day, product, version and platform, in UTC days', async () => {
    const result = await analytics('?from=2026-03-01&to=2026-03-05');
    expect(result).toMatchObject({ from: '2026-03-01', to: '2026-03-05', productKey: null, total: 6 });
    expect(result.products).toEqual([
      { key: 'alpha', name: 'Alpha' },
      { key: 'beta', name: 'Beta' },
    ]);
    expect(totals(result.breakdowns.product)).toEqual([
      ['Alpha', 5],
      ['Beta', 1],
    ]);
    expect(result.breakdowns.product.points).toEqual([
      { day: '2026-03-01', key: 'alpha', downloads: 2 },
      { day: '2026-03-02', key: 'alpha', downloads: 2 },
      { day: '2026-03-03', key: 'beta', downloads: 1 },
      { day: '2026-03-05', key: 'alpha', downloads: 1 },
    ]);
    expect(totals(result.breakdowns.version)).toEqual([
      ['Alpha 1.10.0', 3],
      ['Alpha 1.0.0', 2],
      ['Beta 0.9.0', 1],
    ]);
    expect(totals(result.breakdowns.platform)).toEqual([
      ['linux', 3],
      ['npm', 1],
      ['osx', 1],
      ['windows', 1],
    ]);
    expect(result.breakdowns.platform.points.filter((p) => p.key === 'linux')).toEqual([
      { day: '2026-03-01', key: 'linux', downloads: 1 },
      { day: '2026-03-02', key: 'linux', downloads: 2 },
    ]);
  });

  it('ends a one-day range at midnight UTC', async () => {
    const result = await analytics('?from=2026-03-01&to=2026-03-01');
    expect(result.total).toBe(2);
    expect((await analytics('?from=2026-02-28&to=2026-02-28')).total).toBe(1);
    expect((await analytics('?from=2026-03-02&to=2026-03-02')).total).toBe(2);
  });

  it('ranks the top customers of the range, of every product or of one', async () => {
    const all = await analytics('?from=2026-03-01&to=2026-03-05');
    expect(all.topCustomers).toEqual([
      { customerId: customers.a.id, customerName: 'Acme', downloads: 3 },
      { customerId: customers.b.id, customerName: 'Bolt', downloads: 2 },
      { customerId: customers.c.id, customerName: 'Cobalt', downloads: 1 },
    ]);
    const beta = await analytics('?from=2026-03-01&to=2026-03-05&productKey=beta');
    expect(beta.topCustomers).toEqual([{ customerId: customers.a.id, customerName: 'Acme', downloads: 1 }]);
    expect(beta.total).toBe(1);
    expect(beta.breakdowns.version.series.map((s) => s.label)).toEqual(['Beta 0.9.0']);
  });

  it("lists customers' first download of a product when it falls in the range", async () => {
    const result = await analytics('?from=2026-03-01&to=2026-03-05');
    expect(result.firstDownloads.total).toBe(3);
    expect(result.firstDownloads.byDay.map((p) => [p.day, p.downloads])).toEqual([
      ['2026-03-01', 1],
      ['2026-03-02', 1],
      ['2026-03-03', 1],
    ]);
    expect(result.firstDownloads.recent).toEqual([
      {
        customerId: customers.a.id,
        customerName: 'Acme',
        productKey: 'beta',
        productName: 'Beta',
        semVer: '0.9.0',
        at: '2026-03-03T09:00:00.000Z',
      },
      expect.objectContaining({ customerName: 'Bolt', productKey: 'alpha', semVer: '1.10.0' }),
      expect.objectContaining({ customerName: 'Acme', productKey: 'alpha', semVer: '1.0.0' }),
    ]);
    const earlier = await analytics('?from=2026-02-28&to=2026-02-28');
    expect(earlier.firstDownloads.recent).toEqual([
      expect.objectContaining({ customerName: 'Cobalt', semVer: '1.10.0', at: '2026-02-28T23:59:59.999Z' }),
    ]);
  });

  it('gives the share of customers whose latest download is the latest release, which drops when a newer one is published', async () => {
    const before = await analytics('?productKey=alpha');
    // Acme and Bolt last downloaded 1.10.0; Cobalt's latest download (5 March) is 1.0.0
    expect(before.latestShare).toEqual([
      { productKey: 'alpha', productName: 'Alpha', latestSemVer: '1.10.0', customers: 3, onLatest: 2 },
    ]);
    await t.app.ctx.db.updateTable('versions').set({ published: 1 }).where('id', '=', versions.alpha2.id).execute();
    const after = await analytics('');
    expect(after.latestShare).toEqual([
      { productKey: 'alpha', productName: 'Alpha', latestSemVer: '2.0.0', customers: 3, onLatest: 0 },
      { productKey: 'beta', productName: 'Beta', latestSemVer: '0.9.0', customers: 1, onLatest: 1 },
    ]);
  });

  it('takes the last 90 days by default, and a 90-day range from one given end', async () => {
    const today = utcToday();
    expect(await analytics('')).toMatchObject({ from: addDays(today, -89), to: today });
    expect(await analytics('?from=2026-01-01')).toMatchObject({ from: '2026-01-01', to: '2026-03-31' });
    expect(await analytics('?to=2026-03-31')).toMatchObject({ from: '2026-01-01', to: '2026-03-31' });
  });

  it('refuses days that do not exist, a reversed range and one longer than 366 days (400)', async () => {
    const problem = async (query: string) => {
      const response = await get(pm, query);
      expect(response.statusCode, query).toBe(400);
      return response.json().error.details[0];
    };
    expect(await problem('?from=2026-02-30')).toMatchObject({ path: 'from', message: ANALYTICS_ERRORS.invalidDate });
    expect(await problem('?to=yesterday')).toMatchObject({ path: 'to', message: ANALYTICS_ERRORS.invalidDate });
    expect(await problem('?from=2026-03-02&to=2026-03-01')).toMatchObject({
      path: 'to',
      message: ANALYTICS_ERRORS.toBeforeFrom,
    });
    expect(await problem('?from=2025-01-01&to=2026-01-02')).toMatchObject({
      path: 'from',
      message: ANALYTICS_ERRORS.tooLong,
    });
    expect((await get(pm, '?from=2025-01-01&to=2026-01-01')).statusCode).toBe(200);
    expect((await get(pm, '?productKey=a&productKey=b')).statusCode).toBe(400);
  });

  it('counts concurrent downloads of the same day, version and customer once each', async () => {
    await Promise.all(
      Array.from({ length: 12 }, () =>
        download(licences.bAlpha, versions.alpha1, 'docker', '2026-04-01T10:00:00.000Z'),
      ),
    );
    const result = await analytics('?from=2026-04-01&to=2026-04-01');
    expect(result.total).toBe(12);
    expect(result.topCustomers).toEqual([{ customerId: customers.b.id, customerName: 'Bolt', downloads: 12 }]);
  });

  it('builds the same aggregates from the downloads table as the downloads built one by one (the migration)', async () => {
    const { db } = t.app.ctx;
    const snapshot = async () => ({
      days: await db
        .selectFrom('downloadDays')
        .selectAll()
        .orderBy('productKey')
        .orderBy('day')
        .orderBy('versionId')
        .orderBy('platform')
        .execute(),
      customers: await db
        .selectFrom('customerDownloadDays')
        .selectAll()
        .orderBy('productKey')
        .orderBy('day')
        .orderBy('customerId')
        .execute(),
      firsts: await db
        .selectFrom('customerProductDownloads')
        .selectAll()
        .orderBy('customerId')
        .orderBy('productKey')
        .execute(),
    });
    const incremental = await snapshot();
    expect(incremental.firsts.length).toBe(4);
    // the first and the latest version differ for some customer, so the backfill must tell them apart
    expect(incremental.firsts.some((row) => row.firstVersionId !== row.lastVersionId)).toBe(true);
    const tables = ['downloadDays', 'customerDownloadDays', 'customerProductDownloads', 'customerDownloadsToDate'];
    for (const table of tables as ['downloadDays']) await db.deleteFrom(table).execute();
    await backfillDownloadAnalytics(db);
    await backfillDownloadsToDate(db);
    expect(await snapshot()).toEqual(incremental);
  });
});

describe('the analytics queries', () => {
  /** The plans of the statements a repository function runs (a recording copy of the handle). */
  async function plansOf(run: (db: DB) => Promise<unknown>): Promise<string> {
    const { db } = t.app.ctx;
    const nodes: RootOperationNode[] = [];
    const recorder: KyselyPlugin = {
      transformQuery: ({ node }) => (nodes.push(node), node),
      transformResult: async ({ result }) => result,
    };
    await run(db.withPlugin(recorder));
    const plans = await Promise.all(
      nodes.map((node) => explain(db, db.getExecutor().compileQuery(node, { queryId: 'plan' }))),
    );
    return plans.join('\n');
  }
  const range = { from: '2026-03-01', to: '2026-05-29', productKey: null };
  const one = { ...range, productKey: 'alpha' };

  it('read a range of days from the aggregates through their indexes, never the downloads', async () => {
    const cases: [string, (db: DB) => Promise<unknown>][] = [
      ['per day and product', (db) => repo.downloadsByDay(db, range, 'productKey')],
      ['per day and version, one product', (db) => repo.downloadsByDay(db, one, 'versionId')],
      ['top customers', (db) => repo.topCustomers(db, range, 10)],
      ['top customers, one product', (db) => repo.topCustomers(db, one, 10)],
      ['first downloads per day', (db) => repo.firstDownloadsByDay(db, range)],
      ['first downloads per day, one product', (db) => repo.firstDownloadsByDay(db, one)],
      ['recent first downloads', (db) => repo.recentFirstDownloads(db, range, 50)],
    ];
    for (const [name, run] of cases) {
      const plan = await plansOf(run);
      expect(plan, name).toMatch(/download_days|customer_product_downloads|customer_downloads_to_date/);
      // the downloads table itself: SQLite "SCAN/SEARCH downloads", PostgreSQL "… on downloads"
      expect(plan, name).not.toMatch(/(SCAN|SEARCH|on) downloads\b/);
      // no aggregate read whole: SQLite "SCAN <table>" (a temporary b-tree is fine), PostgreSQL "Seq Scan"
      expect(plan, name).not.toMatch(
        /^SCAN (download_days|customer_download_days|customer_product_downloads)\b|Seq Scan/m,
      );
    }
  });
});
