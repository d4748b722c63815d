import { useMemo } from 'react';
import {
  type ChartDrawEvent,
  type ChartSpec,
  Chartist,
  colourOf,
  paletteOf,
  placeLabel,
  seriesClass,
} from './Chartist';

interface TimeChartProps {
  days: string[];
  series: { label: string; values: number[]; other?: boolean }[];
  /** bars for a single count per day (first downloads), lines otherwise */
  bars?: boolean;
  height?: number;
}

/** Width of a day's label box: a date in the axis' font, with room to spare. */
const DAY_LABEL = 80;

/** The days labelled on the axis: the first, the middle one and the last, which never overlap at 390 px. */
function labelledDays(count: number): Set<number> {
  return new Set(count <= 1 ? [0] : [0, Math.floor((count - 1) / 2), count - 1]);
}

/**
 * Days on the x axis, counts on the y axis (integers), drawn by Chartist (docs/decisions/042): a line
 * per series, or a bar per day that has a count. Each series takes a colour of Mantine's palette, the
 * same in the legend below it.
 */
export function TimeChart({ days, series, bars = false, height = 220 }: TimeChartProps) {
  const spec = useMemo<ChartSpec>(() => {
    const count = days.length;
    const labelled = labelledDays(count);
    const max = Math.max(0, ...series.flatMap((s) => s.values));
    // a line through every day from the first to the last day's edge; a bar in the middle of each day
    const stretch = !bars && count > 1;
    const draw = (event: ChartDrawEvent) => {
      if (event.type === 'label' && event.axis.units.pos === 'x') {
        const length = event.axis.axisLength;
        const step = stretch ? length / (count - 1) : length / Math.max(1, count);
        const start = event.x - event.index * step;
        if (event.index === 0) placeLabel(event, start, DAY_LABEL, 'flex-start');
        else if (event.index === count - 1) placeLabel(event, start + length - DAY_LABEL, DAY_LABEL, 'flex-end');
        else placeLabel(event, event.x + (stretch ? 0 : step / 2) - DAY_LABEL / 2, DAY_LABEL, 'center');
      } else if (event.type === 'bar') {
        const step = event.axisX.axisLength / Math.max(1, count);
        event.element.attr({ style: `stroke-width: ${Math.min(24, Math.max(1, step * 0.7)).toFixed(1)}px` });
      }
    };
    const data = {
      labels: days,
      series: series.map((s, index) => ({
        name: s.label,
        className: seriesClass(paletteOf(index, s.other)),
        // a bar for each day with a count, none for the others
        data: bars ? s.values.map((value) => (value > 0 ? value : null)) : s.values,
      })),
    };
    const axisX = {
      offset: 24,
      showGrid: false,
      labelInterpolationFnc: (day: unknown, index: number) => (labelled.has(index) ? String(day) : null),
    };
    const axisY = {
      // room for the longest count, right-aligned 6 px before the plot and centred on its grid line
      offset: 18 + 7 * String(max).length,
      onlyInteger: true,
      scaleMinSpace: 28,
      labelOffset: { x: 4, y: 6 },
    };
    const chartPadding = { top: 12, right: 12, bottom: 0, left: 0 };
    return bars
      ? { type: 'bar', data, draw, options: { low: 0, axisX, axisY, chartPadding } }
      : {
          type: 'line',
          data,
          draw,
          options: {
            low: 0,
            axisX,
            axisY,
            chartPadding,
            fullWidth: stretch,
            lineSmooth: false,
            // dots only while there is room for them
            showPoint: count <= 31,
          },
        };
  }, [days, series, bars]);

  return (
    <div aria-hidden="true" data-testid="analytics-chart" style={{ width: '100%' }}>
      <Chartist spec={spec} height={height} />
      {series.length > 1 && (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 12px', fontSize: 12 }}>
          {series.map((s, index) => (
            <span key={s.label} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
              <span
                style={{ width: 10, height: 10, borderRadius: 2, background: colourOf(paletteOf(index, s.other)) }}
              />
              {s.label}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
