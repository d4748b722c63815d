import type { Breakdown } from '../../../common/api/analytics';
import { addDays } from '../../../common/licence-status';

/** Series drawn one by one; the others are summed as one "other" series. */
export const CHART_SERIES = 6;
export const OTHER = '__other__';

/** Every day from `from` to `to`, both included. */
export function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to && days.length <= 400; day = addDays(day, 1)) days.push(day);
  return days;
}

interface Pivot {
  /** the series shown, largest first, then "other" when some are summed */
  columns: { key: string; label: string }[];
  days: string[];
  /** per column, the downloads of each day (0 when none) */
  values: number[][];
  /** per day, all series together */
  totals: number[];
}

/** A breakdown as a day-by-series grid, for the chart and the table behind it. */
export function pivot(breakdown: Breakdown, days: string[], otherLabel: string, limit = CHART_SERIES): Pivot {
  const shown = breakdown.series.slice(0, limit);
  const columns = shown.map(({ key, label }) => ({ key, label }));
  if (breakdown.series.length > limit) columns.push({ key: OTHER, label: otherLabel });
  const column = new Map(columns.map((c, i) => [c.key, i]));
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const values = columns.map(() => days.map(() => 0));
  const totals = days.map(() => 0);
  for (const point of breakdown.points) {
    const d = dayIndex.get(point.day);
    if (d === undefined) continue;
    const c = column.get(point.key) ?? column.get(OTHER);
    if (c !== undefined) values[c][d] += point.downloads;
    totals[d] += point.downloads;
  }
  return { columns, days, values, totals };
}
