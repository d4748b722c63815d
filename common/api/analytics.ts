import { z } from 'zod/mini';
import { addDays, isCalendarDay, utcToday } from '../licence-status';
import { givenOnce } from './common';

/**
 * Download analytics (docs/decisions/039): `GET /api/analytics/downloads?from&to&productKey`, for
 * product managers and admins. Days are UTC calendar days, both ends included.
 */

/** Longest range one request may ask for, in days (both ends included). */
export const ANALYTICS_MAX_DAYS = 366;
/** The range when none is given: the last 90 days, today included. */
export const ANALYTICS_DEFAULT_DAYS = 90;
/** Rows of the top customers and of the recent first downloads. */
export const ANALYTICS_TOP = 10;
export const ANALYTICS_RECENT_FIRST = 50;

/** Message keys of the range rules (client/i18n `analytics.errors.*`); the server sends them in details. */
export const ANALYTICS_ERRORS = {
  invalidDate: 'analytics.errors.invalidDate',
  toBeforeFrom: 'analytics.errors.toBeforeFrom',
  tooLong: 'analytics.errors.tooLong',
} as const;

const Day = z
  .string({ error: givenOnce })
  .check(z.refine((value) => isCalendarDay(value), { message: ANALYTICS_ERRORS.invalidDate }));

/** The number of days from `from` to `to`, both included. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The default range ending today (UTC). */
export function defaultRange(today = utcToday()): { from: string; to: string } {
  return { from: addDays(today, -(ANALYTICS_DEFAULT_DAYS - 1)), to: today };
}

export const DownloadAnalyticsQuery = z
  .object({
    from: z.optional(Day),
    to: z.optional(Day),
    productKey: z.optional(z.string({ error: givenOnce }).check(z.trim(), z.maxLength(100))),
  })
  .check(
    z.refine((q) => !q.from || !q.to || !isCalendarDay(q.from) || !isCalendarDay(q.to) || q.to >= q.from, {
      path: ['to'],
      message: ANALYTICS_ERRORS.toBeforeFrom,
    }),
    z.refine(
      (q) =>
        !q.from ||
        !q.to ||
        !isCalendarDay(q.from) ||
        !isCalendarDay(q.to) ||
        daysBetween(q.from, q.to) <= ANALYTICS_MAX_DAYS,
      { path: ['from'], message: ANALYTICS_ERRORS.tooLong, params: { max: ANALYTICS_MAX_DAYS } },
    ),
  );
export type DownloadAnalyticsQuery = z.infer<typeof DownloadAnalyticsQuery>;

/** One point of a time series: the downloads of one series (a product, a version, a platform) on one day. */
const SeriesPoint = z.object({ day: z.string(), key: z.string(), downloads: z.int() });
type SeriesPoint = z.infer<typeof SeriesPoint>;

/** A series of a breakdown, with its total over the range (the list is by total, largest first). */
const Series = z.object({ key: z.string(), label: z.string(), total: z.int() });
type Series = z.infer<typeof Series>;

export const Breakdown = z.object({ series: z.array(Series), points: z.array(SeriesPoint) });
export type Breakdown = z.infer<typeof Breakdown>;

export const BREAKDOWNS = ['product', 'version', 'platform'] as const;
export type BreakdownKind = (typeof BREAKDOWNS)[number];

const TopCustomer = z.object({ customerId: z.int(), customerName: z.string(), downloads: z.int() });
type TopCustomer = z.infer<typeof TopCustomer>;

const FirstDownload = z.object({
  customerId: z.int(),
  customerName: z.string(),
  productKey: z.string(),
  productName: z.string(),
  /** the version first downloaded; null once it is deleted */
  semVer: z.nullable(z.string()),
  at: z.string(),
});
type FirstDownload = z.infer<typeof FirstDownload>;

/** Of the customers who downloaded the product, those whose latest download was its latest version (now). */
const LatestShare = z.object({
  productKey: z.string(),
  productName: z.string(),
  /** the newest published release (no pre-release) by semantic version; null when none is published */
  latestSemVer: z.nullable(z.string()),
  customers: z.int(),
  onLatest: z.int(),
});
type LatestShare = z.infer<typeof LatestShare>;

export const DownloadAnalytics = z.object({
  from: z.string(),
  to: z.string(),
  productKey: z.nullable(z.string()),
  /** every product, by name, for the filter */
  products: z.array(z.object({ key: z.string(), name: z.string() })),
  total: z.int(),
  breakdowns: z.object({ product: Breakdown, version: Breakdown, platform: Breakdown }),
  topCustomers: z.array(TopCustomer),
  firstDownloads: z.object({ total: z.int(), byDay: z.array(SeriesPoint), recent: z.array(FirstDownload) }),
  latestShare: z.array(LatestShare),
});
export type DownloadAnalytics = z.infer<typeof DownloadAnalytics>;
