// @vitest-environment jsdom
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { daysOf } from './series';
import { TimeChart } from './TimeChart';

/** The window's resize listeners added and not yet removed (Chartist redraws on a window resize). */
function resizeListeners() {
  const live = new Set<unknown>();
  const add = window.addEventListener.bind(window);
  const remove = window.removeEventListener.bind(window);
  vi.spyOn(window, 'addEventListener').mockImplementation((type, listener, options) => {
    if (type === 'resize') live.add(listener);
    add(type, listener, options);
  });
  vi.spyOn(window, 'removeEventListener').mockImplementation((type, listener, options) => {
    if (type === 'resize') live.delete(listener);
    remove(type, listener, options);
  });
  return live;
}

const labels = (chart: HTMLElement, axis: 'horizontal' | 'vertical') =>
  [...chart.querySelectorAll(`.ct-label.ct-${axis}`)].map((label) => label.textContent);

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('TimeChart', () => {
  it('labels three days of a long range, never overlapping, and counts in whole numbers', async () => {
    const days = daysOf('2026-01-01', '2026-03-31');
    const values = days.map((_, i) => i % 3);
    const { getByTestId } = render(<TimeChart days={days} series={[{ label: 'Alpha', values }]} />);
    const chart = getByTestId('analytics-chart');
    await waitFor(() => expect(chart.querySelectorAll('path.ct-line')).toHaveLength(1));
    expect(labels(chart, 'horizontal')).toEqual(['2026-01-01', '2026-02-14', '2026-03-31']);
    // the label boxes follow one another inside the drawing (600 px in the test setup)
    const boxes = [...chart.querySelectorAll('foreignObject')]
      .filter((label) => label.querySelector('.ct-horizontal'))
      .map((label) => [
        Number(label.getAttribute('x')),
        Number(label.getAttribute('x')) + Number(label.getAttribute('width')),
      ]);
    expect(boxes[0][0]).toBeGreaterThanOrEqual(0);
    expect(boxes[0][1]).toBeLessThan(boxes[1][0]);
    expect(boxes[1][1]).toBeLessThan(boxes[2][0]);
    expect(boxes[2][1]).toBeLessThanOrEqual(600);
    // 0 to 2 downloads a day: no 0.5 on the axis
    expect(labels(chart, 'vertical')).toEqual(['0', '1', '2']);
    // one value per day, and no dots for 90 of them
    expect(chart.querySelector('path.ct-line')?.getAttribute('d')?.match(/[ML]/g)).toHaveLength(days.length);
    expect(chart.querySelectorAll('.ct-point')).toHaveLength(0);
  });

  it('draws a bar for each day with a count, in the colour of its legend', async () => {
    const days = daysOf('2026-03-01', '2026-03-05');
    const { getByTestId } = render(
      <TimeChart days={days} series={[{ label: 'First', values: [2, 0, 0, 5, 1] }]} bars />,
    );
    const chart = getByTestId('analytics-chart');
    await waitFor(() => expect(chart.querySelectorAll('.ct-bar')).toHaveLength(3));
    expect([...chart.querySelectorAll('.ct-bar')].map((bar) => bar.getAttribute('ct:value'))).toEqual(['2', '5', '1']);
    expect(chart.querySelector('.ct-series')?.classList.contains('analytics-series-blue')).toBe(true);
  });

  it('gives each series a colour of its own, the legend the same, and the "other" series gray', async () => {
    const days = daysOf('2026-03-01', '2026-03-02');
    const series = [
      { label: 'Alpha', values: [1, 2] },
      { label: 'Beta', values: [2, 1] },
      { label: 'Other', values: [1, 1], other: true },
    ];
    const { getByTestId } = render(<TimeChart days={days} series={series} />);
    const chart = getByTestId('analytics-chart');
    await waitFor(() => expect(chart.querySelectorAll('path.ct-line')).toHaveLength(3));
    expect([...chart.querySelectorAll('.ct-series')].map((g) => g.getAttribute('class'))).toEqual([
      'ct-series analytics-series-blue',
      'ct-series analytics-series-teal',
      'ct-series analytics-series-gray',
    ]);
    const swatches = [...chart.querySelectorAll<HTMLElement>('span[style*="background"]')].map(
      (s) => s.style.background,
    );
    expect(swatches).toEqual([
      'var(--mantine-color-blue-6)',
      'var(--mantine-color-teal-6)',
      'var(--mantine-color-gray-6)',
    ]);
  });

  it('leaves no chart listening once its data changed or it is gone', async () => {
    const live = resizeListeners();
    const days = daysOf('2026-03-01', '2026-03-03');
    const { getByTestId, rerender, unmount } = render(
      <TimeChart days={days} series={[{ label: 'Alpha', values: [1, 2, 3] }]} />,
    );
    const chart = getByTestId('analytics-chart');
    await waitFor(() => expect(chart.querySelectorAll('path.ct-line')).toHaveLength(1));
    expect(live.size).toBe(1);

    rerender(
      <TimeChart
        days={days}
        series={[
          { label: 'Alpha', values: [1, 2, 3] },
          { label: 'Beta', values: [3, 2, 1] },
        ]}
      />,
    );
    await waitFor(() => expect(chart.querySelectorAll('path.ct-line')).toHaveLength(2));
    expect(chart.querySelectorAll('svg')).toHaveLength(1);
    expect(live.size).toBe(1);

    unmount();
    expect(live.size).toBe(0);
  });

  it('is not drawn once unmounted before its first drawing', async () => {
    vi.useFakeTimers();
    const live = resizeListeners();
    const { unmount } = render(
      <TimeChart days={daysOf('2026-03-01', '2026-03-03')} series={[{ label: 'Alpha', values: [1, 2, 3] }]} />,
    );
    unmount();
    // Chartist draws from a timer (the next turn of the event loop), unless detached before: every
    // timer has run, and none drew.
    vi.runAllTimers();
    expect(vi.getTimerCount()).toBe(0);
    expect(live.size).toBe(0);
  });
});
