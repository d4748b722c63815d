import semver from 'semver';
import {
  ANALYTICS_DEFAULT_DAYS,
  ANALYTICS_RECENT_FIRST,
  ANALYTICS_TOP,
  type Breakdown,
  type DownloadAnalytics,
  type DownloadAnalyticsQuery,
  defaultRange,
} from '../../../common/api/analytics';
import { addDays } from '../../../common/licence-status';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import * as repo from './repo';

/**
 * The download analytics of a range of UTC days (docs/decisions/039). A missing end takes the
 * default length from the given one; the contract has refused reversed and too long ranges.
 */
function rangeOf(query: DownloadAnalyticsQuery): repo.Range {
  const fallback = defaultRange();
  const length = ANALYTICS_DEFAULT_DAYS - 1;
  const to = query.to ?? (query.from ? addDays(query.from, length) : fallback.to);
  const from = query.from ?? addDays(to, -length);
  return { from, to, productKey: query.productKey || null };
}

/** The newest published release of each product by semantic version; its newest pre-release when it has no release. */
function latestVersions(versions: { id: number; productKey: string; semVer: string; published: number }[]) {
  const latest = new Map<string, { id: number; semVer: string }>();
  const rank = (v: { semVer: string }) => (semver.prerelease(v.semVer) ? 0 : 1);
  for (const version of versions) {
    if (version.published !== 1 || !semver.valid(version.semVer)) continue;
    const best = latest.get(version.productKey);
    if (
      !best ||
      rank(version) > rank(best) ||
      (rank(version) === rank(best) && semver.gt(version.semVer, best.semVer))
    ) {
      latest.set(version.productKey, { id: version.id, semVer: version.semVer });
    }
  }
  return latest;
}

function breakdown(points: { day: string; key: string | number; downloads: number }[], label: (key: string) => string) {
  const totals = new Map<string, number>();
  const out: Breakdown = { series: [], points: [] };
  for (const point of points) {
    const key = String(point.key);
    const downloads = Number(point.downloads);
    totals.set(key, (totals.get(key) ?? 0) + downloads);
    out.points.push({ day: point.day, key, downloads });
  }
  out.series = [...totals]
    .map(([key, total]) => ({ key, label: label(key), total }))
    .sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  return out;
}

export async function downloadAnalytics(
  ctx: AppContext,
  _actor: Actor,
  query: DownloadAnalyticsQuery,
): Promise<DownloadAnalytics> {
  const { db } = ctx;
  const range = rangeOf(query);
  const [products, versions, byProduct, byVersion, byPlatform, top, firstByDay, recent] = await Promise.all([
    repo.productNames(db),
    repo.versionsOf(db, range.productKey),
    repo.downloadsByDay(db, range, 'productKey'),
    repo.downloadsByDay(db, range, 'versionId'),
    repo.downloadsByDay(db, range, 'platform'),
    repo.topCustomers(db, range, ANALYTICS_TOP),
    repo.firstDownloadsByDay(db, range),
    repo.recentFirstDownloads(db, range, ANALYTICS_RECENT_FIRST),
  ]);
  const productName = new Map(products.map((p) => [p.key, p.name]));
  const versionById = new Map(versions.map((v) => [String(v.id), v]));
  const latest = latestVersions(versions);
  const shares = await repo.customersOnVersions(
    db,
    range.productKey,
    [...latest.values()].map((v) => v.id),
  );
  const versionBreakdown = breakdown(byVersion, (key) => {
    const version = versionById.get(key);
    return version ? `${productName.get(version.productKey) ?? version.productKey} ${version.semVer}` : key;
  });
  return {
    from: range.from,
    to: range.to,
    productKey: range.productKey,
    products,
    total: byProduct.reduce((sum, p) => sum + Number(p.downloads), 0),
    breakdowns: {
      product: breakdown(byProduct, (key) => productName.get(key) ?? key),
      version: versionBreakdown,
      platform: breakdown(byPlatform, (key) => key),
    },
    topCustomers: top.map((c) => ({ ...c, downloads: Number(c.downloads) })),
    firstDownloads: {
      total: firstByDay.reduce((sum, p) => sum + Number(p.downloads), 0),
      byDay: firstByDay.map((p) => ({ day: p.day, key: 'first', downloads: Number(p.downloads) })),
      recent,
    },
    latestShare: shares
      .map((s) => ({
        productKey: s.productKey,
        productName: productName.get(s.productKey) ?? s.productKey,
        latestSemVer: latest.get(s.productKey)?.semVer ?? null,
        customers: Number(s.customers),
        onLatest: Number(s.onLatest),
      }))
      .sort((a, b) => a.productName.localeCompare(b.productName)),
  };
}
