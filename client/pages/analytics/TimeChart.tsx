import { useEffect, useRef, useState } from 'react';

/** Mantine palette names the series take in turn; the "other" series is gray. */
const PALETTE = ['blue', 'teal', 'orange', 'grape', 'red', 'cyan', 'lime', 'pink'];

export interface TimeChartProps {
  days: string[];
  series: { label: string; values: number[]; other?: boolean }[];
  /** bars for a single count per day (first downloads), lines otherwise */
  bars?: boolean;
  height?: number;
}

const colourOf = (index: number, other?: boolean) =>
  `var(--mantine-color-${other ? 'gray' : PALETTE[index % PALETTE.length]}-6)`;

/** A round step for the value axis: 1, 2 or 5 times a power of ten. */
function niceMax(max: number): number {
  if (max <= 4) return Math.max(1, max);
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((s) => s * power >= max / 4)! * power;
  return Math.ceil(max / step) * step;
}

const PAD = { left: 44, right: 12, top: 8, bottom: 24 };

/**
 * Days on the x axis, counts on the y axis, as SVG drawn at the box's width (docs/decisions/039:
 * a chart library did not fit the client's budget). Colours are Mantine's CSS variables, so it follows
 * the colour scheme. It is decoration for sighted readers: the table beside it carries the same
 * figures, so the drawing is hidden from assistive technology.
 */
export function TimeChart({ days, series, bars = false, height = 220 }: TimeChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(Math.max(element.clientWidth, 200)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const max = niceMax(Math.max(0, ...series.flatMap((s) => s.values)));
  const plotWidth = width - PAD.left - PAD.right;
  const plotHeight = height - PAD.top - PAD.bottom;
  const step = plotWidth / Math.max(1, days.length);
  const x = (i: number) => PAD.left + step * (i + 0.5);
  const y = (value: number) => PAD.top + plotHeight * (1 - value / max);
  const ticks = [0, max / 2, max].filter((v, i, all) => Number.isInteger(v) && all.indexOf(v) === i);
  const labelled = days.length <= 1 ? [0] : [0, Math.floor((days.length - 1) / 2), days.length - 1];
  const text = { fontSize: 11, fill: 'var(--mantine-color-text)' };

  return (
    <div ref={box} aria-hidden="true" data-testid="analytics-chart" style={{ width: '100%' }}>
      <svg width={width} height={height} style={{ display: 'block' }}>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={PAD.left}
              x2={width - PAD.right}
              y1={y(tick)}
              y2={y(tick)}
              stroke="var(--mantine-color-default-border)"
            />
            <text x={PAD.left - 6} y={y(tick) + 4} textAnchor="end" {...text}>
              {tick}
            </text>
          </g>
        ))}
        {labelled.map((i) => (
          <text
            key={i}
            x={x(i)}
            y={height - 6}
            textAnchor={i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle'}
            {...text}
          >
            {days[i]}
          </text>
        ))}
        {series.map((s, index) =>
          bars ? (
            <g key={s.label} fill={colourOf(index, s.other)}>
              {s.values.map((value, i) =>
                value > 0 ? (
                  <rect
                    key={days[i]}
                    x={x(i) - Math.max(1, step * 0.35)}
                    width={Math.max(2, step * 0.7)}
                    y={y(value)}
                    height={PAD.top + plotHeight - y(value)}
                  />
                ) : null,
              )}
            </g>
          ) : (
            <polyline
              key={s.label}
              fill="none"
              stroke={colourOf(index, s.other)}
              strokeWidth={2}
              strokeLinejoin="round"
              points={s.values.map((value, i) => `${x(i).toFixed(1)},${y(value).toFixed(1)}`).join(' ')}
            />
          ),
        )}
      </svg>
      {series.length > 1 && (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: '4px 12px', fontSize: 12 }}>
          {series.map((s, index) => (
            <span key={s.label} style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
              <span style={{ width: 10, height: 10, borderRadius: 2, background: colourOf(index, s.other) }} />
              {s.label}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
