import { useMemo } from 'react';
import { type ChartDrawEvent, type ChartSpec, Chartist, placeLabel, seriesClass } from './Chartist';

interface RankChartProps {
  /** one bar per row, top to bottom in this order */
  rows: { label: string; value: number }[];
  /** the value axis' highest value (the longest bar's value when not given) */
  high?: number;
  /** how a value reads on the value axis (an integer otherwise) */
  format?: (value: number) => string;
}

const ROW = 32;
const NAMES = 120;
const VALUE_LABEL = 60;

/**
 * Horizontal bars drawn by Chartist (docs/decisions/042), one per row, its name on the left (cut with
 * an ellipsis when longer than the column; the table below has it whole) and the values on an axis of
 * integers below.
 */
export function RankChart({ rows, high, format }: RankChartProps) {
  const spec = useMemo<ChartSpec>(() => {
    const draw = (event: ChartDrawEvent) => {
      if (event.type === 'label' && event.axis.units.pos === 'x') {
        placeLabel(event, event.x - VALUE_LABEL / 2, VALUE_LABEL, 'center');
      } else if (event.type === 'label') {
        const span = event.element.getNode().firstElementChild;
        const name = document.createElement('span');
        name.className = 'analytics-chart-name';
        name.textContent = String(event.text);
        span?.replaceChildren(name);
      } else if (event.type === 'bar') {
        const step = event.axisY.axisLength / Math.max(1, rows.length);
        event.element.attr({ style: `stroke-width: ${Math.min(16, step * 0.6).toFixed(1)}px` });
      }
    };
    return {
      type: 'bar',
      data: {
        labels: rows.map((r) => r.label),
        series: [{ className: seriesClass('blue'), data: rows.map((r) => r.value) }],
      },
      draw,
      options: {
        horizontalBars: true,
        // Chartist draws the first row at the bottom
        reverseData: true,
        low: 0,
        high,
        axisX: {
          offset: 24,
          onlyInteger: true,
          scaleMinSpace: VALUE_LABEL,
          labelInterpolationFnc: (value: unknown) => (format ? format(Number(value)) : String(value)),
        },
        axisY: { offset: NAMES, showGrid: false },
        chartPadding: { top: 4, right: VALUE_LABEL / 2, bottom: 0, left: 0 },
      },
    };
  }, [rows, high, format]);
  return <Chartist spec={spec} height={rows.length * ROW + 28} testId="analytics-chart" />;
}
