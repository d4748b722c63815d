import { Anchor, Badge, Button, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { Customer } from '../../../../common/api/customers';
import type { Instance } from '../../../../common/api/instances';
import { formatDayMonthYear } from '../../../../common/format';
import { INSTANCE_STATUS_DOTS, STATUS_DOT_COLOURS } from '../../../../common/instances';
import { ApiError } from '../../../api/client';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import {
  archiveInstance,
  inProgress,
  INSTANCES_PAGE_LENGTH,
  instanceKeys,
  instancesQuery,
  restoreInstance,
} from '../../../api/instances';
import { useLocale } from '../../../app/locale';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable } from '../../../components/DataTable';
import { apiErrorText } from '../../../components/forms';
import { LoadError } from '../../../components/LoadError';
import { notify } from '../../../components/notify';
import { Pagination } from '../../../components/Pagination';
import { usePageInAddress } from '../../../components/use-searched-pages';
import { AccountSection } from '../AccountSection';

type Change = { instance: Instance; action: 'archive' | 'restore' };

/**
 * Cloud instances (spec 2, hidden when none; spec 4, statuses, dots and links; spec 6, the logs link
 * for support engineers and admins). Loaded for every role with the page's first answer. While an
 * instance is on its way (creating, provisioning, deleting) the list asks again every few seconds,
 * so it becomes Ready on screen; staff archive and restore an instance after a confirmation.
 */
export function CloudInstancesSection({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const { offset, setOffset } = usePageInAddress('instances-page', INSTANCES_PAGE_LENGTH);
  const instances = useQuery({
    ...instancesQuery(customer.id, offset),
    placeholderData: keepPreviousData,
    staleTime: FIRST_SCREEN_FRESH_MS,
  });
  const [change, setChange] = useState<Change | null>(null);
  const mutation = useMutation({
    mutationFn: ({ instance, action }: Change) =>
      action === 'archive' ? archiveInstance(instance.id) : restoreInstance(instance.id),
    onSuccess: (instance, { action }) => {
      notify({
        status: 'success',
        message: t(action === 'archive' ? 'instances.archived' : 'instances.restored', { name: instance.name }),
      });
    },
    onError: (error, { instance, action }) => {
      const message =
        error instanceof ApiError && error.status === 409
          ? t('instances.conflict', {
              name: instance.name,
              action: t(action === 'archive' ? 'instances.conflictArchive' : 'instances.conflictRestore'),
            })
          : t('instances.error', { error: apiErrorText(error, t) });
      notify({ status: 'error', message });
    },
    onSettled: async () => {
      setChange(null);
      await queryClient.invalidateQueries({ queryKey: instanceKeys.all(customer.id) });
    },
  });

  const list = instances.data;
  if (!list && !instances.isError) return null;
  if (list && list.total === 0) return null;
  const rows = list?.data ?? [];
  const logs = customer.can.viewSaasLogs;
  const manage = rows.some((instance) => instance.can.archive || instance.can.restore);
  const polling = inProgress(list);

  return (
    <AccountSection title={t('instances.title')} testId="instances-section">
      <Stack gap="sm" mt="sm">
        <LoadError query={instances} messageKey="instances.loadError" testId="instances-load-error" />
        {rows.length > 0 && (
          <DataTable label={t('instances.table')} minWidth={logs || manage ? 720 : 560} data-testid="instances-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('instances.columns.name')}</Table.Th>
                <Table.Th>{t('instances.columns.tier')}</Table.Th>
                <Table.Th>{t('instances.columns.status')}</Table.Th>
                <Table.Th>{t('instances.columns.open')}</Table.Th>
                {logs && <Table.Th>{t('instances.columns.logs')}</Table.Th>}
                {manage && <Table.Th>{t('instances.columns.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((instance) => (
                <Table.Tr key={instance.id} data-testid="instance-row" data-name={instance.name}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{instance.name}</Table.Td>
                  <Table.Td>{t(`instances.tiers.${instance.tier}`, { defaultValue: instance.tier })}</Table.Td>
                  <Table.Td>
                    <Stack gap={2} align="flex-start">
                      <Badge
                        variant="dot"
                        color={STATUS_DOT_COLOURS[INSTANCE_STATUS_DOTS[instance.status]]}
                        data-testid="instance-status"
                        data-status={instance.status}
                        data-dot={INSTANCE_STATUS_DOTS[instance.status]}
                      >
                        {t(`instances.status.${instance.status}`)}
                      </Badge>
                      {instance.deleteDataAt && (
                        <Text size="xs" c="dimmed" data-testid="instance-delete-on">
                          {t('instances.deleteOn', { date: formatDayMonthYear(instance.deleteDataAt, locale) })}
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    {instance.can.open && instance.url ? (
                      <Anchor
                        href={instance.url}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={t('instances.openFor', { name: instance.name })}
                        data-testid="instance-open"
                      >
                        {t('instances.open')}
                      </Anchor>
                    ) : (
                      <Button size="compact-sm" variant="subtle" disabled data-testid="instance-open-inactive">
                        {t('instances.open')}
                      </Button>
                    )}
                  </Table.Td>
                  {logs && (
                    <Table.Td>
                      {instance.can.logs && instance.logsUrl ? (
                        <Anchor
                          href={instance.logsUrl}
                          target="_blank"
                          rel="noopener noreferrer"
                          aria-label={t('instances.logsFor', { name: instance.name })}
                          data-testid="instance-logs"
                        >
                          {t('instances.logs')}
                        </Anchor>
                      ) : (
                        <Text span c="dimmed" aria-hidden="true">
                          —
                        </Text>
                      )}
                    </Table.Td>
                  )}
                  {manage && (
                    <Table.Td>
                      <InstanceAction instance={instance} onAsk={setChange} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )}
        {list && (
          <Pagination
            offset={list.offset}
            pageLength={INSTANCES_PAGE_LENGTH}
            total={list.total}
            totalCapped={list.totalCapped}
            onChange={setOffset}
          />
        )}
        {polling && (
          <VisuallyHidden role="status" data-testid="instances-polling">
            {t('instances.updating')}
          </VisuallyHidden>
        )}
      </Stack>
      <ConfirmModal
        opened={change !== null}
        title={t(change?.action === 'restore' ? 'instances.restoreTitle' : 'instances.archiveTitle')}
        message={
          change?.action === 'restore'
            ? t('instances.restoreConfirm', { name: change.instance.name })
            : t('instances.archiveConfirm', {
                name: change?.instance.name ?? '',
                count: change?.instance.deleteDataDelayInDays ?? 0,
              })
        }
        cancelLabel={t('instances.keep')}
        confirmLabel={t(change?.action === 'restore' ? 'instances.restoreYes' : 'instances.archiveYes')}
        confirmColor={change?.action === 'restore' ? undefined : 'red'}
        pending={mutation.isPending}
        testId="instance-confirm"
        confirmTestId="instance-confirm-yes"
        onCancel={() => setChange(null)}
        onConfirm={() => change && mutation.mutate(change)}
      />
    </AccountSection>
  );
}

/**
 * The one action a staff member may take on an instance now: archive a ready one, restore a disabled
 * one. One button in one place whatever the action, so the focus returns to it after the dialog.
 */
function InstanceAction({ instance, onAsk }: { instance: Instance; onAsk: (change: Change) => void }) {
  const { t } = useTranslation();
  const action = instance.can.archive ? 'archive' : instance.can.restore ? 'restore' : null;
  if (!action) return null;
  return (
    <Button
      size="compact-sm"
      variant="subtle"
      color={action === 'archive' ? 'red' : undefined}
      onClick={() => onAsk({ instance, action })}
      aria-label={t(action === 'archive' ? 'instances.archiveFor' : 'instances.restoreFor', { name: instance.name })}
      data-testid={`instance-${action}`}
    >
      {t(action === 'archive' ? 'instances.archive' : 'instances.restore')}
    </Button>
  );
}
