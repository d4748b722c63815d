import { Anchor, Button, Card, Group, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useCallback, useId, useMemo } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link, useSearchParams } from 'react-router';
import { BREAKDOWNS, type BreakdownKind, type DownloadAnalytics } from '../../../common/api/analytics';
import { useLocale, useLocalize } from '../../app/locale';
import { DataTable } from '../../components/DataTable';
import { Pagination } from '../../components/Pagination';
import { usePageInAddress } from '../../components/use-searched-pages';
import { type CsvCell, saveCsv, toCsv } from './csv';
import { daysOf, OTHER, pivot } from './series';
import { RankChart } from './RankChart';
import { TimeChart } from './TimeChart';

interface FigureProps {
  data: DownloadAnalytics;
}

/** One figure: a title, what the chart says in words, the chart, the table behind it and its CSV. */
function Figure({
  id,
  title,
  summary,
  chart,
  table,
  pager,
  csv,
}: {
  id: string;
  title: string;
  summary: string;
  chart: ReactNode;
  table: ReactNode;
  /** the table's pages, when it has more than one */
  pager?: ReactNode;
  csv: (() => { name: string; header: string[]; rows: CsvCell[][] }) | null;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Card component="section" withBorder radius="md" padding="md" aria-labelledby={titleId} data-testid={id}>
      <Stack gap="sm">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={2} size="h3" id={titleId}>
            {title}
          </Title>
          {csv && (
            <Button
              variant="default"
              size="xs"
              onClick={() => {
                const { name, header, rows } = csv();
                saveCsv(name, toCsv(header, rows));
              }}
              aria-label={t('analytics.exportLabel', { figure: title })}
              data-testid={`${id}-csv`}
            >
              {t('analytics.export')}
            </Button>
          )}
        </Group>
        <Text size="sm">{summary}</Text>
        {chart}
        {table}
        {pager}
      </Stack>
    </Card>
  );
}

const fileName = (what: string, data: DownloadAnalytics) =>
  `downloads-${what}${data.productKey ? `-${data.productKey}` : ''}-${data.from}-${data.to}.csv`;

/** Days of the table under the chart per page: a range of 90 days is no 90-row table, nor 90 cards on a phone. */
const DAYS_PAGE_LENGTH = 10;
const DAYS_PAGE_PARAM = 'days';

/** The breakdown of the chart over time, in the address (`by`), the product's when it names none. */
function useBreakdownInAddress(): [BreakdownKind, (kind: BreakdownKind) => void] {
  const [params, setParams] = useSearchParams();
  const named = params.get('by');
  const kind = BREAKDOWNS.find((value) => value === named) ?? 'product';
  const setKind = (next: BreakdownKind) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        if (next === 'product') changed.delete('by');
        else changed.set('by', next);
        changed.delete(DAYS_PAGE_PARAM);
        return changed;
      },
      { replace: true, preventScrollReset: true },
    );
  return [kind, setKind];
}

export function OverTimeFigure({ data }: FigureProps) {
  const { t } = useTranslation();
  const [kind, setKind] = useBreakdownInAddress();
  const { offset, setOffset } = usePageInAddress(DAYS_PAGE_PARAM, DAYS_PAGE_LENGTH);
  const days = useMemo(() => daysOf(data.from, data.to), [data.from, data.to]);
  const breakdown = data.breakdowns[kind];
  const grid = useMemo(() => pivot(breakdown, days, t('analytics.other')), [breakdown, days, t]);
  const label = useCallback(
    (key: string, text: string) =>
      kind === 'platform' ? t(`analytics.platforms.${key}`, { defaultValue: text }) : text,
    [kind, t],
  );
  const series = useMemo(
    () =>
      grid.columns.map((c, i) => ({ label: label(c.key, c.label), values: grid.values[i], other: c.key === OTHER })),
    [grid, label],
  );
  const daysWithDownloads = grid.days.map((day, i) => ({ day, i })).filter(({ i }) => grid.totals[i] > 0);
  // a page past the last (a shorter range since) shows the last
  const lastOffset = Math.max(0, Math.ceil(daysWithDownloads.length / DAYS_PAGE_LENGTH) - 1) * DAYS_PAGE_LENGTH;
  const pageOffset = Math.min(offset, lastOffset);
  const shownDays = daysWithDownloads.slice(pageOffset, pageOffset + DAYS_PAGE_LENGTH);
  const title = t('analytics.overTime.title');
  return (
    <Figure
      id="analytics-over-time"
      title={title}
      summary={t('analytics.overTime.summary', {
        count: data.total,
        series: breakdown.series.length,
        by: t(`analytics.by.${kind}`),
      })}
      chart={
        <>
          <NativeSelect
            label={t('analytics.overTime.byLabel')}
            value={kind}
            onChange={(event) => setKind(event.currentTarget.value as BreakdownKind)}
            data={BREAKDOWNS.map((value) => ({ value, label: t(`analytics.by.${value}`) }))}
            maw={240}
            data-testid="analytics-breakdown"
          />
          {data.total > 0 && <TimeChart days={days} series={series} />}
        </>
      }
      table={
        shownDays.length === 0 ? (
          <Text data-testid="analytics-over-time-empty">{t('analytics.empty')}</Text>
        ) : (
          <DataTable
            label={t('analytics.tableLabel', { figure: title })}
            minWidth={Math.max(320, 120 * (series.length + 2))}
            striped
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('analytics.columns.day')}</Table.Th>
                {series.map((s) => (
                  <Table.Th scope="col" key={s.label} ta="right">
                    {s.label}
                  </Table.Th>
                ))}
                <Table.Th scope="col" ta="right">
                  {t('analytics.columns.total')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shownDays.map(({ day, i }) => (
                <Table.Tr key={day} data-testid="analytics-over-time-row">
                  <Table.Th scope="row" fw={400}>
                    {day}
                  </Table.Th>
                  {series.map((s) => (
                    <Table.Td key={s.label} ta="right">
                      {s.values[i]}
                    </Table.Td>
                  ))}
                  <Table.Td ta="right">{grid.totals[i]}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )
      }
      pager={
        <Pagination
          offset={pageOffset}
          pageLength={DAYS_PAGE_LENGTH}
          total={daysWithDownloads.length}
          onChange={setOffset}
        />
      }
      csv={() => {
        // the file has every series, not only those drawn
        const full = pivot(breakdown, days, '', Number.POSITIVE_INFINITY);
        return {
          name: fileName(`by-${kind}`, data),
          header: [
            t('analytics.columns.day'),
            ...full.columns.map((c) => label(c.key, c.label)),
            t('analytics.columns.total'),
          ],
          rows: days.map((day, i) => [day, ...full.values.map((v) => v[i]), full.totals[i]]),
        };
      }}
    />
  );
}

export function TopCustomersFigure({ data }: FigureProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const rows = data.topCustomers;
  const bars = useMemo(() => rows.map((r) => ({ label: r.customerName, value: r.downloads })), [rows]);
  const title = t('analytics.topCustomers.title');
  return (
    <Figure
      id="analytics-top-customers"
      title={title}
      summary={
        rows.length > 0
          ? t('analytics.topCustomers.summary', { customer: rows[0].customerName, count: rows[0].downloads })
          : t('analytics.empty')
      }
      chart={rows.length > 0 && <RankChart rows={bars} />}
      table={
        rows.length > 0 && (
          <DataTable label={t('analytics.tableLabel', { figure: title })} minWidth={320}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('analytics.columns.customer')}</Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('analytics.columns.downloads')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.customerId} data-testid="analytics-top-customer">
                  <Table.Td>
                    <Anchor component={Link} to={localize(`/accounts/${row.customerId}`)}>
                      {row.customerName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{row.downloads}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )
      }
      csv={
        rows.length > 0
          ? () => ({
              name: fileName('top-customers', data),
              header: [t('analytics.columns.customer'), t('analytics.columns.downloads')],
              rows: rows.map((r) => [r.customerName, r.downloads]),
            })
          : null
      }
    />
  );
}

const share = (on: number, of: number) => (of === 0 ? 0 : on / of);

export function LatestShareFigure({ data }: FigureProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const percent = useMemo(() => new Intl.NumberFormat(locale, { style: 'percent' }), [locale]);
  const asPercent = useCallback((value: number) => percent.format(value / 100), [percent]);
  const rows = data.latestShare;
  const bars = useMemo(
    () => rows.map((r) => ({ label: r.productName, value: 100 * share(r.onLatest, r.customers) })),
    [rows],
  );
  const title = t('analytics.latestShare.title');
  const header = [
    t('analytics.columns.product'),
    t('analytics.columns.latestVersion'),
    t('analytics.columns.onLatest'),
    t('analytics.columns.customers'),
    t('analytics.columns.share'),
  ];
  return (
    <Figure
      id="analytics-latest-share"
      title={title}
      summary={rows.length > 0 ? t('analytics.latestShare.summary') : t('analytics.empty')}
      chart={rows.length > 0 && <RankChart rows={bars} high={100} format={asPercent} />}
      table={
        rows.length > 0 && (
          <DataTable label={t('analytics.tableLabel', { figure: title })} minWidth={480}>
            <Table.Thead>
              <Table.Tr>
                {header.map((h, i) => (
                  <Table.Th scope="col" key={h} ta={i > 1 ? 'right' : undefined}>
                    {h}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={row.productKey} data-testid="analytics-latest-share-row">
                  <Table.Td>{row.productName}</Table.Td>
                  <Table.Td>{row.latestSemVer ?? t('analytics.latestShare.none')}</Table.Td>
                  <Table.Td ta="right">{row.onLatest}</Table.Td>
                  <Table.Td ta="right">{row.customers}</Table.Td>
                  <Table.Td ta="right">{percent.format(share(row.onLatest, row.customers))}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )
      }
      csv={
        rows.length > 0
          ? () => ({
              name: fileName('latest-version', data),
              header,
              rows: rows.map((r) => [
                r.productName,
                r.latestSemVer,
                r.onLatest,
                r.customers,
                share(r.onLatest, r.customers).toFixed(4),
              ]),
            })
          : null
      }
    />
  );
}

export function FirstDownloadsFigure({ data }: FigureProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const days = useMemo(() => daysOf(data.from, data.to), [data.from, data.to]);
  const first = data.firstDownloads;
  const series = useMemo(() => {
    const grid = pivot({ series: [{ key: 'first', label: '', total: first.total }], points: first.byDay }, days, '');
    return [{ label: t('analytics.firstDownloads.series'), values: grid.values[0] }];
  }, [first, days, t]);
  const title = t('analytics.firstDownloads.title');
  const header = [
    t('analytics.columns.day'),
    t('analytics.columns.customer'),
    t('analytics.columns.product'),
    t('analytics.columns.version'),
  ];
  return (
    <Figure
      id="analytics-first-downloads"
      title={title}
      summary={t('analytics.firstDownloads.summary', { count: first.total, shown: first.recent.length })}
      chart={first.total > 0 && <TimeChart days={days} series={series} bars height={160} />}
      table={
        first.recent.length > 0 && (
          <DataTable label={t('analytics.tableLabel', { figure: title })} minWidth={480}>
            <Table.Thead>
              <Table.Tr>
                {header.map((h) => (
                  <Table.Th scope="col" key={h}>
                    {h}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {first.recent.map((row) => (
                <Table.Tr key={`${row.customerId}/${row.productKey}`} data-testid="analytics-first-download">
                  <Table.Td>{row.at.slice(0, 10)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={localize(`/accounts/${row.customerId}`)}>
                      {row.customerName}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{row.productName}</Table.Td>
                  <Table.Td>{row.semVer ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )
      }
      csv={
        first.recent.length > 0
          ? () => ({
              name: fileName('first-downloads', data),
              header,
              rows: first.recent.map((r) => [r.at.slice(0, 10), r.customerName, r.productName, r.semVer]),
            })
          : null
      }
    />
  );
}
