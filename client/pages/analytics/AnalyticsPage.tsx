import { Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useSearchParams } from 'react-router';
import { ANALYTICS_MAX_DAYS, DownloadAnalyticsQuery, defaultRange } from '../../../common/api/analytics';
import { type AnalyticsFilter, analyticsQuery } from '../../api/analytics';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { LoadError } from '../../components/LoadError';
import { PageHeader } from '../../components/PageHeader';
import { FirstDownloadsFigure, LatestShareFigure, OverTimeFigure, TopCustomersFigure } from './figures';

/** The address parameters of the filter, each left out at its default (the last 30 days, every product). */
const PARAMS = { from: 'from', to: 'to', productKey: 'product' } as const;

/**
 * The filter the address names, the default range and every product otherwise; each valid filter
 * chosen goes back into the address (replacing the current step), so a shared link or Back shows the
 * same figures.
 */
function useFilterInAddress() {
  const [params, setParams] = useSearchParams();
  const [filter, setFilter] = useState<AnalyticsFilter>(() => {
    const range = defaultRange();
    return {
      from: params.get(PARAMS.from) ?? range.from,
      to: params.get(PARAMS.to) ?? range.to,
      productKey: params.get(PARAMS.productKey) ?? '',
    };
  });
  const write = (valid: AnalyticsFilter) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        const defaults: AnalyticsFilter = { ...defaultRange(), productKey: '' };
        for (const field of ['from', 'to', 'productKey'] as const) {
          if (valid[field] === defaults[field]) next.delete(PARAMS[field]);
          else next.set(PARAMS[field], valid[field]);
        }
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  return { filter, setFilter, write };
}

/**
 * Download analytics for product managers and admins (docs/decisions/039): a range of UTC days and a
 * product, then each figure as a chart and the table behind it, each table exportable as CSV.
 */
export function AnalyticsPage() {
  const { t } = useTranslation();
  usePageTitle(t('analytics.title'));
  const { filter, setFilter, write } = useFilterInAddress();
  const checked = DownloadAnalyticsQuery.safeParse({ from: filter.from, to: filter.to });
  const problem = (field: 'from' | 'to') => {
    if (!filter[field]) return t('analytics.errors.invalidDate');
    const issue = checked.success ? undefined : checked.error.issues.find((i) => i.path[0] === field);
    return issue ? t(issue.message, { max: ANALYTICS_MAX_DAYS }) : null;
  };
  const valid = checked.success && Boolean(filter.from && filter.to);
  // While a date is being typed, the figures of the last valid range stay on screen.
  const lastValid = useRef(filter);
  if (valid) lastValid.current = filter;
  const { from, to, productKey } = lastValid.current;
  const written = useRef(lastValid.current);
  useEffect(() => {
    const shown = { from, to, productKey };
    if (JSON.stringify(shown) === JSON.stringify(written.current)) return;
    written.current = shown;
    write(shown);
  }, [from, to, productKey, write]);
  const analytics = useQuery(analyticsQuery(lastValid.current));
  const data = analytics.data;
  // The figures (four charts and their tables) are rendered in the background, yielding to the
  // browser every few milliseconds, rather than in one long task (decision 053).
  const figures = useDeferredValue(data);
  const dateInput = (field: 'from' | 'to') => (
    <TextInput
      type="date"
      label={t(`analytics.filter.${field}`)}
      value={filter[field]}
      max={field === 'from' ? filter.to : undefined}
      min={field === 'to' ? filter.from : undefined}
      error={problem(field)}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setFilter((f) => ({ ...f, [field]: value }));
      }}
      data-testid={`analytics-${field}`}
    />
  );

  return (
    <Stack gap="lg" py="md">
      <PageHeader title={t('analytics.title')} description={t('analytics.intro')} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" component="form" onSubmit={(e) => e.preventDefault()}>
        {dateInput('from')}
        {dateInput('to')}
        <NativeSelect
          label={t('analytics.filter.product')}
          value={filter.productKey}
          onChange={(event) => {
            const productKey = event.currentTarget.value;
            setFilter((f) => ({ ...f, productKey }));
          }}
          data={[
            { value: '', label: t('analytics.filter.allProducts') },
            ...(data?.products ?? []).map((p) => ({ value: p.key, label: p.name })),
          ]}
          data-testid="analytics-product"
        />
      </SimpleGrid>
      {(analytics.isPending || (data && !figures)) && <DelayedLoader testId="analytics-loader" />}
      <LoadError query={analytics} messageKey="analytics.loadError" testId="analytics-error" />
      {figures && (
        <Stack
          gap="lg"
          style={{ opacity: analytics.isPlaceholderData || figures !== data ? 0.5 : undefined }}
          aria-busy={analytics.isFetching || figures !== data}
        >
          <Group gap="xs">
            <Text role="status" data-testid="analytics-total">
              {t('analytics.total', { count: figures.total, from: figures.from, to: figures.to })}
            </Text>
          </Group>
          <OverTimeFigure data={figures} />
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
            <TopCustomersFigure data={figures} />
            <LatestShareFigure data={figures} />
          </SimpleGrid>
          <FirstDownloadsFigure data={figures} />
        </Stack>
      )}
    </Stack>
  );
}
