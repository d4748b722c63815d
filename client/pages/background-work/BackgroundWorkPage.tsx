import { Button, Code, Group, NativeSelect, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useSearchParams } from 'react-router';
import type { FailedJobItem } from '../../../common/api/jobs';
import { formatDateTime } from '../../../common/format';
import { DEFAULT_PAGE_LENGTH } from '../../../common/pagination';
import type { Locale } from '../../../common/roles';
import { useLocale } from '../../app/locale';
import { usePageTitle } from '../../app/title';
import { ApiError } from '../../api/client';
import { discardFailedJob, failedJobsQuery, jobCountsQuery, jobKeys, retryFailedJob } from '../../api/jobs';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DataTable } from '../../components/DataTable';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { LoadError } from '../../components/LoadError';
import { notify } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { isStale, usePageInAddress } from '../../components/use-searched-pages';

/** The address parameters of the failed jobs' list: the page (from 1) and the job name shown. */
const BACKGROUND_WORK_PARAMS = { page: 'page', name: 'name' } as const;

/** The job name the address keeps (none: every name); a new one starts again from the first page. */
function useNameInAddress() {
  const [params, setParams] = useSearchParams();
  const name = params.get(BACKGROUND_WORK_PARAMS.name) ?? '';
  const setName = (next: string) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next) updated.set(BACKGROUND_WORK_PARAMS.name, next);
        else updated.delete(BACKGROUND_WORK_PARAMS.name);
        updated.delete(BACKGROUND_WORK_PARAMS.page);
        return updated;
      },
      { replace: true, preventScrollReset: true },
    );
  return { name, setName };
}

const time = (value: string | null, locale: Locale) =>
  value ? (
    <time dateTime={value} style={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(value, locale)}
    </time>
  ) : (
    '—'
  );

/**
 * Background work, for admins (docs/decisions/062, "Operators"; the engine: 063): each kind of work the job engine
 * runs with its jobs by state, then the failed jobs, a page at a time and of one name if asked, each
 * queued again or discarded (after a confirmation). Both ask again every 10 s while the tab is shown.
 */
export function BackgroundWorkPage() {
  const { t } = useTranslation();
  usePageTitle(t('backgroundWork.title'));
  const locale = useLocale();
  const queryClient = useQueryClient();
  const { name, setName } = useNameInAddress();
  const { offset, setOffset } = usePageInAddress(BACKGROUND_WORK_PARAMS.page, DEFAULT_PAGE_LENGTH);
  const counts = useQuery(jobCountsQuery());
  const failed = useQuery(failedJobsQuery({ offset, name }, DEFAULT_PAGE_LENGTH));
  const [discarding, setDiscarding] = useState<FailedJobItem | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: jobKeys.all });

  /** Why an action failed; a job no longer failed (retried, discarded or purged meanwhile) is said plainly. */
  const failure = (key: string, error: unknown) =>
    error instanceof ApiError && error.status === 404
      ? t('backgroundWork.noLongerFailed')
      : t(key, { error: apiErrorText(error, t) });

  /** After the page's last job went, the page before it (rather than an empty one). */
  const done = () => {
    if (failed.data?.data.length === 1 && offset > 0) setOffset(offset - DEFAULT_PAGE_LENGTH);
    void reload();
  };

  const retry = useMutation({
    mutationFn: retryFailedJob,
    onSuccess: (_answer, job) => {
      notify({ status: 'success', message: t('backgroundWork.retried', { name: job.name }) });
      done();
    },
    onError: (error) => {
      notify({ status: 'error', message: failure('backgroundWork.retryFailed', error) });
      void reload();
    },
  });
  const discard = useMutation({
    mutationFn: discardFailedJob,
    onSuccess: (_answer, job) => {
      setDiscarding(null);
      notify({ status: 'success', message: t('backgroundWork.discarded', { name: job.name }) });
      done();
    },
    onError: (error) => {
      setDiscarding(null);
      notify({ status: 'error', message: failure('backgroundWork.discardFailed', error) });
      void reload();
    },
  });

  const names = counts.data?.data.map((row) => row.name) ?? [];
  const jobs = failed.data?.data ?? [];
  const stale = isStale(failed);

  return (
    <Stack gap="lg" py="md">
      <PageHeader title={t('backgroundWork.title')} description={t('backgroundWork.intro')} />

      {/* each table is a region named after its heading (DataTable): no section landmark around it */}
      <Stack gap="xs">
        <Title order={2} size="h3">
          {t('backgroundWork.countsTitle')}
        </Title>
        {counts.isPending && <DelayedLoader testId="job-counts-loader" />}
        <LoadError query={counts} messageKey="backgroundWork.countsLoadError" testId="job-counts-error" />
        {counts.data && (
          <DataTable
            label={t('backgroundWork.countsTitle')}
            minWidth={560}
            striped
            data-testid="job-counts"
            aria-busy={counts.isFetching}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('backgroundWork.columns.name')}</Table.Th>
                <Table.Th scope="col">{t('backgroundWork.columns.queued')}</Table.Th>
                <Table.Th scope="col">{t('backgroundWork.columns.active')}</Table.Th>
                <Table.Th scope="col">{t('backgroundWork.columns.failed')}</Table.Th>
                <Table.Th scope="col">{t('backgroundWork.columns.completed')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {counts.data.data.map((row) => (
                <Table.Tr key={row.name} data-testid="job-count-row">
                  <Table.Th scope="row">{row.name}</Table.Th>
                  <Table.Td>{row.queued}</Table.Td>
                  <Table.Td>{row.active}</Table.Td>
                  <Table.Td>
                    <Text span inherit c={row.failed > 0 ? 'red.8' : undefined} fw={row.failed > 0 ? 700 : undefined}>
                      {row.failed}
                    </Text>
                  </Table.Td>
                  <Table.Td>{row.completed}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )}
      </Stack>

      <Stack gap="xs">
        <Title order={2} size="h3">
          {t('backgroundWork.failedTitle')}
        </Title>
        <NativeSelect
          label={t('backgroundWork.filter')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          data={[
            { value: '', label: t('backgroundWork.allJobs') },
            // a name from a link that is no longer declared still shows as chosen
            ...[...names, ...(name && !names.includes(name) ? [name] : [])].map((job) => ({ value: job, label: job })),
          ]}
          maw={400}
          data-testid="failed-jobs-name"
        />
        {(failed.isPending || stale) && <DelayedLoader testId="failed-jobs-loader" />}
        <LoadError query={failed} messageKey="backgroundWork.failedLoadError" testId="failed-jobs-error" />
        {failed.data && jobs.length === 0 && (
          <>
            <Text role="status" data-testid="failed-jobs-empty">
              {t('backgroundWork.empty')}
            </Text>
            {/* a page beyond the last (an old link): the way back */}
            {failed.data.total > 0 && (
              <Pagination
                offset={offset}
                pageLength={DEFAULT_PAGE_LENGTH}
                total={failed.data.total}
                onChange={setOffset}
              />
            )}
          </>
        )}
        {failed.data && jobs.length > 0 && (
          <>
            <Text size="sm" c="dimmed" data-testid="failed-jobs-count">
              {t('backgroundWork.failedCount', { count: failed.data.total })}
            </Text>
            <DataTable
              label={t('backgroundWork.failedTitle')}
              minWidth={960}
              data-testid="failed-jobs"
              aria-busy={failed.isFetching}
              style={stale ? { opacity: 0.5 } : undefined}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('backgroundWork.columns.name')}</Table.Th>
                  <Table.Th scope="col">{t('backgroundWork.columns.error')}</Table.Th>
                  <Table.Th scope="col">{t('backgroundWork.columns.attempts')}</Table.Th>
                  <Table.Th scope="col">{t('backgroundWork.columns.createdAt')}</Table.Th>
                  <Table.Th scope="col">{t('backgroundWork.columns.failedAt')}</Table.Th>
                  <Table.Th scope="col">{t('backgroundWork.columns.payload')}</Table.Th>
                  <Table.Th scope="col">
                    <VisuallyHidden>{t('backgroundWork.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {jobs.map((job) => (
                  <Table.Tr key={`${job.name}/${job.id}`} data-testid="failed-job-row">
                    <Table.Td>
                      {/* names are short: kept whole on a line rather than broken mid-word */}
                      <Text span inherit fw={600} style={{ whiteSpace: 'nowrap' }}>
                        {job.name}
                      </Text>
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {t('backgroundWork.jobId', { id: job.id })}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={6} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                        {job.error ?? t('backgroundWork.noError')}
                      </Text>
                    </Table.Td>
                    <Table.Td>{job.attempts}</Table.Td>
                    <Table.Td>{time(job.createdAt, locale)}</Table.Td>
                    <Table.Td>{time(job.failedAt, locale)}</Table.Td>
                    <Table.Td>
                      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {job.payloadSummary}
                      </Code>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="compact-sm"
                          variant="light"
                          loading={retry.isPending && retry.variables === job}
                          disabled={retry.isPending && retry.variables !== job}
                          onClick={() => retry.mutate(job)}
                          aria-label={t('backgroundWork.retryLabel', { name: job.name, id: job.id })}
                          data-testid="failed-job-retry"
                        >
                          {t('backgroundWork.retry')}
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          onClick={() => setDiscarding(job)}
                          aria-label={t('backgroundWork.discardLabel', { name: job.name, id: job.id })}
                          data-testid="failed-job-discard"
                        >
                          {t('backgroundWork.discard')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </DataTable>
            <Pagination
              offset={failed.data.offset}
              pageLength={DEFAULT_PAGE_LENGTH}
              total={failed.data.total}
              totalCapped={failed.data.totalCapped}
              onChange={setOffset}
            />
          </>
        )}
      </Stack>

      <ConfirmModal
        opened={discarding !== null}
        title={t('backgroundWork.discardTitle')}
        message={discarding ? t('backgroundWork.discardConfirm', { name: discarding.name, id: discarding.id }) : ''}
        cancelLabel={t('backgroundWork.cancel')}
        confirmLabel={t('backgroundWork.discard')}
        confirmColor="red"
        pending={discard.isPending}
        testId="failed-job-discard-confirm"
        confirmTestId="failed-job-discard-yes"
        onCancel={() => setDiscarding(null)}
        onConfirm={() => discarding && discard.mutate(discarding)}
      />
    </Stack>
  );
}
