import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../common/licence-status';
import { backfillDownloadsToDate } from '../../db/migrations/014_downloads_to_date';
import { recordDownload } from '../downloads/repo';
import { createCustomer, createLicence, createProduct, createVersion } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import type { DB } from '../../db';
import * as repo from './repo';

let t: TestApp;
const recorded: { customerId: number; productKey: string; day: string }[] = [];
const products = ['alpha', 'beta'];

/** The previous path: the range's days summed per customer (migration 012's daily table). */
async function summedDays(db: DB, range: repo.Range, limit: number) {
  const rows = await db
    .selectFrom('customerDownloadDays')
    .select((eb) => ['customerId', eb.fn.sum<number>('downloads').as('downloads')])
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .$if(range.productKey !== null, (q) => q.where('productKey', '=', range.productKey!))
    .groupBy('customerId')
    .orderBy('downloads', 'desc')
    .orderBy('customerId')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ customerId: r.customerId, downloads: Number(r.downloads) }));
}

/** The same answer counted from the downloads as they were recorded. */
function counted(range: repo.Range, limit: number) {
  const totals = new Map<number, number>();
  for (const d of recorded) {
    if (d.day < range.from || d.day > range.to) continue;
    if (range.productKey !== null && d.productKey !== range.productKey) continue;
    totals.set(d.customerId, (totals.get(d.customerId) ?? 0) + 1);
  }
  return [...totals]
    .map(([customerId, downloads]) => ({ customerId, downloads }))
    .sort((a, b) => b.downloads - a.downloads || a.customerId - b.customerId)
    .slice(0, limit);
}

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.app.ctx;
  const licences: { id: number; customerId: number; productKey: string; versionId: number }[] = [];
  for (const key of products) await createProduct(db, { key, name: key });
  const versionOf = new Map<string, number>();
  for (const key of products) versionOf.set(key, (await createVersion(db, key, { semVer: '1.0.0' })).id);
  for (let i = 0; i < 5; i++) {
    const customer = await createCustomer(db, { name: `Customer ${i}` });
    // the last customer holds only beta
    for (const key of i === 4 ? ['beta'] : products) {
      const licence = await createLicence(db, customer.id, key);
      licences.push({ id: licence.id, customerId: customer.id, productKey: key, versionId: versionOf.get(key)! });
    }
  }
  // a fixed pseudo-random spread over five months, recorded out of order: later days first, then
  // earlier ones between them, as an import would
  let seed = 7;
  const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  const downloads = Array.from({ length: 160 }, () => ({
    licence: licences[next(licences.length)]!,
    day: addDays('2026-01-10', next(150)),
  }));
  for (const { licence, day } of downloads) {
    await recordDownload(db, {
      licenceId: licence.id,
      versionId: licence.versionId,
      artifactId: null,
      userId: null,
      ip: null,
      platform: 'linux',
      createdAt: `${day}T${String(next(24)).padStart(2, '0')}:00:00.000Z`,
    });
    recorded.push({ customerId: licence.customerId, productKey: licence.productKey, day });
  }
});

afterAll(() => t.close());

// whole months, partial months at one or both ends, a single day, month boundaries, empty ranges
const ranges: [string, string][] = [
  ['2026-01-01', '2026-12-31'],
  ['2026-02-01', '2026-02-28'],
  ['2026-01-15', '2026-03-10'],
  ['2026-01-31', '2026-02-01'],
  ['2026-03-31', '2026-05-02'],
  ['2026-02-14', '2026-02-14'],
  ['2026-04-10', '2026-06-09'],
  ['2025-01-01', '2026-01-09'],
  ['2026-06-09', '2026-12-31'],
];

describe('the top customers from running totals', () => {
  it('give the same answer as summing the days and as counting the downloads, for any range', async () => {
    const { db } = t.app.ctx;
    let nonEmpty = 0;
    for (const [from, to] of ranges) {
      for (const productKey of [null, ...products]) {
        const range = { from, to, productKey };
        for (const limit of [2, 10]) {
          const top = (await repo.topCustomers(db, range, limit)).map((r) => ({
            customerId: r.customerId,
            downloads: Number(r.downloads),
          }));
          const label = `${from}..${to} ${productKey ?? 'every product'} top ${limit}`;
          expect(top, label).toEqual(await summedDays(db, range, limit));
          expect(top, label).toEqual(counted(range, limit));
          if (top.length > 0) nonEmpty++;
        }
      }
    }
    // the ranges exercise real answers, not only empty ones
    expect(nonEmpty).toBeGreaterThan(30);
  });

  it('builds the same running totals from the daily counts as the downloads built one by one (the migration)', async () => {
    const { db } = t.app.ctx;
    const snapshot = async () => ({
      perProduct: await db
        .selectFrom('customerDownloadDays')
        .select(['productKey', 'customerId', 'day', 'downloadsToDate'])
        .orderBy('productKey')
        .orderBy('customerId')
        .orderBy('day')
        .execute(),
      everyProduct: await db
        .selectFrom('customerDownloadsToDate')
        .selectAll()
        .orderBy('customerId')
        .orderBy('day')
        .execute(),
    });
    const incremental = await snapshot();
    expect(incremental.everyProduct.length).toBeGreaterThan(50);
    // the last running total of each customer is their number of downloads
    const last = new Map(incremental.everyProduct.map((r) => [r.customerId, Number(r.downloads)]));
    for (const [customerId, downloads] of last) {
      expect(downloads).toBe(recorded.filter((d) => d.customerId === customerId).length);
    }
    await db.deleteFrom('customerDownloadsToDate').execute();
    await db.updateTable('customerDownloadDays').set({ downloadsToDate: 0 }).execute();
    await backfillDownloadsToDate(db);
    expect(await snapshot()).toEqual(incremental);
  });
});
