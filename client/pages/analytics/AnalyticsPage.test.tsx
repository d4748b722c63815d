// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DownloadAnalytics } from '../../../common/api/analytics';
import { apiError, fakeApi } from '../../test/fake-api';
import { CurrentLocation, renderPage } from '../../test/render';
import { AnalyticsPage } from './AnalyticsPage';

const answer: DownloadAnalytics = {
  from: '2026-03-01',
  to: '2026-03-03',
  productKey: null,
  products: [
    { key: 'alpha', name: 'Alpha' },
    { key: 'beta', name: 'Beta' },
  ],
  total: 5,
  breakdowns: {
    product: {
      series: [
        { key: 'alpha', label: 'Alpha', total: 4 },
        { key: 'beta', label: 'Beta', total: 1 },
      ],
      points: [
        { day: '2026-03-01', key: 'alpha', downloads: 3 },
        { day: '2026-03-03', key: 'alpha', downloads: 1 },
        { day: '2026-03-03', key: 'beta', downloads: 1 },
      ],
    },
    version: { series: [{ key: '7', label: 'Alpha 1.0.0', total: 5 }], points: [] },
    platform: {
      series: [
        { key: 'osx', label: 'osx', total: 3 },
        { key: 'unknown', label: 'unknown', total: 2 },
      ],
      points: [
        { day: '2026-03-01', key: 'osx', downloads: 3 },
        { day: '2026-03-03', key: 'unknown', downloads: 2 },
      ],
    },
  },
  topCustomers: [
    { customerId: 11, customerName: '=Acme, Inc.', downloads: 4 },
    { customerId: 12, customerName: 'Bolt', downloads: 1 },
  ],
  firstDownloads: {
    total: 1,
    byDay: [{ day: '2026-03-01', key: 'first', downloads: 1 }],
    recent: [
      {
        customerId: 12,
        customerName: 'Bolt',
        productKey: 'alpha',
        productName: 'Alpha',
        semVer: '1.0.0',
        at: '2026-03-01T10:00:00.000Z',
      },
    ],
  },
  latestShare: [{ productKey: 'alpha', productName: 'Alpha', latestSemVer: '1.1.0', customers: 3, onLatest: 2 }],
};

let saved: { name: string; text: string }[] = [];
beforeEach(() => {
  saved = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    // the byte-order mark first, so that spreadsheets read UTF-8
    void blob.arrayBuffer().then((bytes) => {
      const bom = [...new Uint8Array(bytes).slice(0, 3)].join(',') === '239,187,191';
      saved.push({ name: '', text: `${bom ? 'BOM:' : ''}${new TextDecoder().decode(bytes)}` });
    });
    return 'blob:csv';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, text: '' });
  });
});

const tableOf = (figure: string) => within(screen.getByTestId(figure)).getByRole('table');
const chartOf = (figure: string) => within(screen.getByTestId(figure)).getByTestId('analytics-chart');
const number = (element: Element, attribute: string) => Number(element.getAttribute(attribute));
/** Each series Chartist drew, by name: the value of each of its points. */
const seriesOf = (chart: HTMLElement) =>
  Object.fromEntries(
    [...chart.querySelectorAll('.ct-series')].map((series) => [
      series.getAttribute('ct:series-name'),
      [...series.querySelectorAll('.ct-point')].map((point) => point.getAttribute('ct:value')),
    ]),
  );
/** An axis' labels, in the order drawn. */
const labelsOf = (chart: HTMLElement, axis: 'horizontal' | 'vertical') =>
  [...chart.querySelectorAll(`.ct-label.ct-${axis}`)].map((label) => label.textContent);
/** Horizontal bars top down: the name beside each, its value and its length as a share of the axis. */
const barsOf = (chart: HTMLElement) => {
  const grid = [...chart.querySelectorAll('.ct-grid.ct-horizontal')].map((line) => number(line, 'x1'));
  const axis = Math.max(...grid) - Math.min(...grid);
  const names = [...chart.querySelectorAll('foreignObject')]
    .filter((label) => label.querySelector('.ct-vertical'))
    .sort((a, b) => number(a, 'y') - number(b, 'y'))
    .map((label) => label.textContent);
  return [...chart.querySelectorAll('.ct-bar')]
    .sort((a, b) => number(a, 'y1') - number(b, 'y1'))
    .map((bar, i) => ({
      name: names[i],
      value: bar.getAttribute('ct:value'),
      share: Math.round((100 * (number(bar, 'x2') - number(bar, 'x1'))) / axis) / 100,
    }));
};
const cells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent));

describe('AnalyticsPage', () => {
  it('shows each figure with its chart and the table behind it', async () => {
    const api = fakeApi({ 'GET /api/analytics/downloads': () => ({ status: 200, body: answer }) });
    renderPage(<AnalyticsPage />, { path: '/en/analytics', route: '/:locale/analytics' });
    expect((await screen.findByTestId('analytics-total')).textContent).toBe(
      '5 downloads from 2026-03-01 to 2026-03-03',
    );
    const request = api.calls('GET /api/analytics/downloads')[0].query;
    expect(request.get('to')! > request.get('from')!).toBe(true);
    expect(request.get('productKey')).toBeNull();

    expect(cells(tableOf('analytics-over-time'))).toEqual([
      ['Day', 'Alpha', 'Beta', 'Total'],
      ['2026-03-01', '3', '0', '3'],
      ['2026-03-03', '1', '1', '2'],
    ]);
    // one Chartist line per series through each day's count, hidden from assistive technology: the
    // table says the same
    const chart = chartOf('analytics-over-time');
    expect(chart.getAttribute('aria-hidden')).toBe('true');
    await waitFor(() => expect(chart.querySelectorAll('path.ct-line')).toHaveLength(2));
    expect(seriesOf(chart)).toEqual({ Alpha: ['3', '0', '1'], Beta: ['0', '0', '1'] });
    expect(chart.textContent).toContain('2026-03-01');
    expect(chart.textContent).toContain('AlphaBeta');
    // first downloads: one bar, on the one day with some
    const first = chartOf('analytics-first-downloads');
    await waitFor(() => expect(first.querySelectorAll('.ct-bar')).toHaveLength(1));
    expect(first.querySelector('.ct-bar')?.getAttribute('ct:value')).toBe('1');
    fireEvent.change(screen.getByTestId('analytics-breakdown'), { target: { value: 'platform' } });
    await waitFor(() => expect(cells(tableOf('analytics-over-time'))[0]).toEqual(['Day', 'macOS', 'Unknown', 'Total']));
    // the chart drawn again for the platforms, in place of the products'
    await waitFor(() => expect(seriesOf(chart)).toEqual({ macOS: ['3', '0', '0'], Unknown: ['0', '0', '2'] }));
    expect(chart.querySelectorAll('svg')).toHaveLength(1);

    // a bar per top customer, top down as in the table, as long as their downloads
    const top = chartOf('analytics-top-customers');
    await waitFor(() => expect(top.querySelectorAll('.ct-bar')).toHaveLength(2));
    expect(barsOf(top)).toEqual([
      { name: '=Acme, Inc.', value: '4', share: 1 },
      { name: 'Bolt', value: '1', share: 0.25 },
    ]);
    // the share on the latest version: two customers of three, on an axis of percentages
    const latest = chartOf('analytics-latest-share');
    await waitFor(() => expect(latest.querySelectorAll('.ct-bar')).toHaveLength(1));
    expect(barsOf(latest)).toEqual([{ name: 'Alpha', value: expect.stringMatching(/^66\.66/), share: 0.67 }]);
    expect(labelsOf(latest, 'horizontal')).toEqual(expect.arrayContaining(['0%', '50%', '100%']));

    expect(cells(tableOf('analytics-top-customers'))).toEqual([
      ['Customer', 'Downloads'],
      ['=Acme, Inc.', '4'],
      ['Bolt', '1'],
    ]);
    expect(within(tableOf('analytics-top-customers')).getByRole('link', { name: 'Bolt' }).getAttribute('href')).toBe(
      '/en/accounts/12',
    );
    expect(cells(tableOf('analytics-latest-share'))[1]).toEqual(['Alpha', '1.1.0', '2', '3', '67%']);
    expect(cells(tableOf('analytics-first-downloads'))[1]).toEqual(['2026-03-01', 'Bolt', 'Alpha', '1.0.0']);
  });

  it('exports a table as CSV, quoted and with formulas neutralised', async () => {
    fakeApi({ 'GET /api/analytics/downloads': () => ({ status: 200, body: answer }) });
    renderPage(<AnalyticsPage />, { path: '/en/analytics', route: '/:locale/analytics' });
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV: Top customers' }));
    await waitFor(() => expect(saved.map((s) => s.name || s.text)).toHaveLength(2));
    expect(saved.find((s) => s.name)?.name).toBe('downloads-top-customers-2026-03-01-2026-03-03.csv');
    expect(saved.find((s) => s.text)?.text).toBe('BOM:Customer,Downloads\r\n"\'=Acme, Inc.",4\r\nBolt,1\r\n');
  });

  it('asks again for the product chosen, and refuses a reversed range without asking', async () => {
    const api = fakeApi({ 'GET /api/analytics/downloads': () => ({ status: 200, body: answer }) });
    renderPage(<AnalyticsPage />, { path: '/en/analytics', route: '/:locale/analytics' });
    await screen.findByTestId('analytics-total');
    fireEvent.change(screen.getByTestId('analytics-product'), { target: { value: 'beta' } });
    await waitFor(() => expect(api.calls('GET /api/analytics/downloads').at(-1)?.query.get('productKey')).toBe('beta'));
    const asked = api.calls('GET /api/analytics/downloads').length;
    // the default range ends today, long after this end
    fireEvent.change(screen.getByTestId('analytics-to'), { target: { value: '2026-03-01' } });
    expect(await screen.findByText('The end must not be before the start')).toBeTruthy();
    expect(api.calls('GET /api/analytics/downloads')).toHaveLength(asked);
    fireEvent.change(screen.getByTestId('analytics-from'), { target: { value: '2026-02-20' } });
    await waitFor(() => expect(api.calls('GET /api/analytics/downloads').at(-1)?.query.get('from')).toBe('2026-02-20'));
    expect(api.calls('GET /api/analytics/downloads').at(-1)?.query.get('to')).toBe('2026-03-01');
    expect(screen.queryByText('The end must not be before the start')).toBeNull();
  });

  it('keeps the range and the product in the address: a shared link shows the same figures', async () => {
    const api = fakeApi({ 'GET /api/analytics/downloads': () => ({ status: 200, body: answer }) });
    renderPage(
      <>
        <AnalyticsPage />
        <CurrentLocation />
      </>,
      { path: '/en/analytics?from=2026-02-01&to=2026-02-28&product=beta', route: '/:locale/analytics' },
    );
    await screen.findByTestId('analytics-total');
    const first = api.calls('GET /api/analytics/downloads')[0].query;
    expect([first.get('from'), first.get('to'), first.get('productKey')]).toEqual(['2026-02-01', '2026-02-28', 'beta']);
    expect((screen.getByTestId('analytics-from') as HTMLInputElement).value).toBe('2026-02-01');
    fireEvent.change(screen.getByTestId('analytics-product'), { target: { value: '' } });
    await waitFor(() =>
      expect(screen.getByTestId('location').getAttribute('data-search')).toBe('?from=2026-02-01&to=2026-02-28'),
    );
  });

  it('pages the table of days, ten a page, with the page and the breakdown in the address', async () => {
    const days = Array.from({ length: 25 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}`);
    const long: DownloadAnalytics = {
      ...answer,
      from: days[0],
      to: days[24],
      total: 25,
      breakdowns: {
        ...answer.breakdowns,
        product: {
          series: [{ key: 'alpha', label: 'Alpha', total: 25 }],
          points: days.map((day) => ({ day, key: 'alpha', downloads: 1 })),
        },
        platform: {
          series: [{ key: 'osx', label: 'osx', total: 25 }],
          points: days.map((day) => ({ day, key: 'osx', downloads: 1 })),
        },
      },
    };
    fakeApi({ 'GET /api/analytics/downloads': () => ({ status: 200, body: long }) });
    renderPage(
      <>
        <AnalyticsPage />
        <CurrentLocation />
      </>,
      { path: `/en/analytics?from=${days[0]}&to=${days[24]}`, route: '/:locale/analytics' },
    );
    const dayColumn = () =>
      cells(tableOf('analytics-over-time'))
        .slice(1)
        .map((row) => row[0]);
    await waitFor(() => expect(dayColumn()).toEqual(days.slice(0, 10)));
    const figure = within(screen.getByTestId('analytics-over-time'));
    expect(figure.getByTestId('pagination').textContent).toContain('Page 1 of 3');
    fireEvent.click(figure.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(dayColumn()).toEqual(days.slice(10, 20)));
    expect(screen.getByTestId('location').getAttribute('data-search')).toBe(`?from=${days[0]}&to=${days[24]}&days=2`);
    fireEvent.click(figure.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(dayColumn()).toEqual(days.slice(20)));

    // another breakdown starts the table again at its first page, and the address says which
    fireEvent.change(screen.getByTestId('analytics-breakdown'), { target: { value: 'platform' } });
    await waitFor(() => expect(cells(tableOf('analytics-over-time'))[0]).toEqual(['Day', 'macOS', 'Total']));
    expect(dayColumn()).toEqual(days.slice(0, 10));
    expect(screen.getByTestId('location').getAttribute('data-search')).toBe(
      `?from=${days[0]}&to=${days[24]}&by=platform`,
    );
  });

  it('opens on the page and the breakdown a shared link names', async () => {
    fakeApi({ 'GET /api/analytics/downloads': () => ({ status: 200, body: answer }) });
    renderPage(<AnalyticsPage />, { path: '/en/analytics?by=platform&days=9', route: '/:locale/analytics' });
    // a page past the last shows the last: here the only one
    await waitFor(() =>
      expect(cells(tableOf('analytics-over-time'))).toEqual([
        ['Day', 'macOS', 'Unknown', 'Total'],
        ['2026-03-01', '3', '0', '3'],
        ['2026-03-03', '0', '2', '2'],
      ]),
    );
    expect((screen.getByTestId('analytics-breakdown') as HTMLSelectElement).value).toBe('platform');
    expect(screen.queryByTestId('pagination')).toBeNull();
  });

  it('says when there are no downloads, and when they could not be loaded, in French too', async () => {
    const empty: DownloadAnalytics = {
      ...answer,
      total: 0,
      breakdowns: {
        product: { series: [], points: [] },
        version: { series: [], points: [] },
        platform: { series: [], points: [] },
      },
      topCustomers: [],
      firstDownloads: { total: 0, byDay: [], recent: [] },
      latestShare: [],
    };
    fakeApi({ 'GET /api/analytics/downloads': () => ({ status: 200, body: empty }) });
    const first = renderPage(<AnalyticsPage />, { path: '/fr/analytics', route: '/:locale/analytics' });
    expect((await screen.findByTestId('analytics-over-time-empty')).textContent).toBe(
      'Aucun téléchargement sur cette période.',
    );
    expect(screen.queryByTestId('analytics-chart')).toBeNull();
    expect(screen.queryByRole('button', { name: /Exporter Meilleurs clients/ })).toBeNull();
    first.unmount();

    fakeApi({ 'GET /api/analytics/downloads': () => apiError(500, 'internal', 'Boom') });
    renderPage(<AnalyticsPage />, { path: '/en/analytics', route: '/:locale/analytics' });
    expect((await screen.findByTestId('analytics-error')).textContent).toContain(
      'The download analytics could not be loaded',
    );
  });
});
