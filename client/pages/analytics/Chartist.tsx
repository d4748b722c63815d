import {
  type AxesDrawEvent,
  BarChart,
  type BarChartOptions,
  type BarDrawEvent,
  type BarChartData,
  LineChart,
  type LineChartData,
  type LineChartOptions,
} from 'chartist';
import { useEffect, useRef } from 'react';
import './charts.css';

/** Mantine palette names the series take in turn; the "other" series is gray. */
const PALETTE = ['blue', 'teal', 'orange', 'grape', 'red', 'cyan', 'lime', 'pink'] as const;

/** A series' palette name: the chart's class for it (charts.css) and its legend swatch share it. */
export const paletteOf = (index: number, other?: boolean) => (other ? 'gray' : PALETTE[index % PALETTE.length]);
export const seriesClass = (palette: string) => `analytics-series-${palette}`;
export const colourOf = (palette: string) => `var(--mantine-color-${palette}-6)`;

export type ChartDrawEvent = AxesDrawEvent | BarDrawEvent | { type: 'point' | 'line' | 'area' };

/** What a chart draws: a Chartist line or bar chart, its data and options, and a hook on each element drawn. */
export type ChartSpec = (
  | { type: 'line'; data: LineChartData; options: LineChartOptions }
  | { type: 'bar'; data: BarChartData; options: BarChartOptions }
) & { draw?: (event: ChartDrawEvent) => void };

/** Places a label's box on the axis: `left` is its left edge, `align` where the text sits in it. */
export function placeLabel(
  event: { element: { getNode(): Element; attr(attributes: Record<string, string | number>): unknown } },
  left: number,
  width: number,
  align: 'flex-start' | 'center' | 'flex-end',
) {
  event.element.attr({ x: left, width });
  const span = event.element.getNode().firstElementChild as HTMLElement | null;
  if (!span) return;
  span.style.width = `${width}px`;
  span.style.justifyContent = align;
}

/**
 * A Chartist chart at its box's width (docs/decisions/042). Chartist redraws on a window resize; a
 * ResizeObserver redraws it when only the box changed (a scroll bar appearing, a column opening). A
 * new spec draws a new chart, and the old one is detached (its resize and media listeners removed)
 * and its drawing taken away, as on unmount. Hidden from assistive technology: each chart has a
 * sentence and a table that carry its figures.
 */
export function Chartist({ spec, height, testId }: { spec: ChartSpec; height: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const chart =
      spec.type === 'line'
        ? new LineChart(element, spec.data, { ...spec.options, height: `${height}px` })
        : new BarChart(element, spec.data, { ...spec.options, height: `${height}px` });
    if (spec.draw) chart.on('draw', spec.draw);
    let drawnWidth = -1;
    chart.on('created', () => {
      drawnWidth = element.clientWidth;
    });
    const observer =
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver(() => {
            // before its first drawing, update() does nothing; Chartist draws it once the page has settled
            if (element.clientWidth !== drawnWidth) chart.update();
          });
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      chart.detach();
      element.replaceChildren();
    };
  }, [spec, height]);
  return (
    <div
      ref={box}
      className="analytics-chart"
      aria-hidden="true"
      data-testid={testId}
      style={{ width: '100%', height }}
    />
  );
}
