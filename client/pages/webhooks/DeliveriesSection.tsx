import { Badge, Button, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import type { WebhookDelivery, WebhookEndpoint } from '../../../common/api/webhooks';
import { formatDateTime } from '../../../common/format';
import { DEFAULT_PAGE_LENGTH } from '../../../common/pagination';
import type { WebhookDeliveryStatus } from '../../../common/webhooks';
import { resendWebhookDelivery, webhookDeliveriesQuery, webhookKeys } from '../../api/webhooks';
import { useLocale } from '../../app/locale';
import { DataTable } from '../../components/DataTable';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { LoadError } from '../../components/LoadError';
import { notify } from '../../components/notify';
import { Pagination } from '../../components/Pagination';
import { isStale, usePageInAddress } from '../../components/use-searched-pages';
import { eventNameKey } from './WebhookModal';

const STATUS_COLOURS: Record<WebhookDeliveryStatus, string> = { pending: 'blue', succeeded: 'teal', failed: 'red' };

/** One endpoint's deliveries, newest first, a page at a time (the page in the address), each with Resend. */
export function DeliveriesSection({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const { offset, setOffset } = usePageInAddress('page', DEFAULT_PAGE_LENGTH);
  const deliveries = useQuery({ ...webhookDeliveriesQuery(endpoint.id, offset), placeholderData: keepPreviousData });
  const stale = isStale(deliveries);
  const rows = deliveries.data?.data ?? [];

  const resend = useMutation({
    mutationFn: (delivery: WebhookDelivery) => resendWebhookDelivery(endpoint.id, delivery.id),
    onSuccess: () => {
      notify({ status: 'success', message: t('webhooks.resent') });
      void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpoint.id) });
    },
    onError: (error) =>
      notify({ status: 'error', message: t('webhooks.resendFailed', { error: apiErrorText(error, t) }) }),
  });

  const title = t('webhooks.deliveriesTitle', { url: endpoint.url });
  return (
    // the table is a region named by this title: no landmark of the same name around it
    <Stack gap="sm" data-testid="webhook-deliveries">
      <Group justify="space-between" align="flex-start" gap="xs">
        <Title
          order={2}
          size="h3"
          id="webhook-deliveries-title"
          style={{ overflowWrap: 'anywhere', flex: '1 1 16rem' }}
        >
          {title}
        </Title>
        <Button variant="subtle" size="compact-md" onClick={onClose} data-testid="webhook-deliveries-close">
          {t('webhooks.backToEndpoints')}
        </Button>
      </Group>
      {(deliveries.isPending || stale) && <DelayedLoader />}
      <LoadError query={deliveries} messageKey="webhooks.deliveriesFailed" testId="webhook-deliveries-error" />
      {deliveries.data && rows.length === 0 && (
        <Text c="dimmed" role="status" data-testid="webhook-deliveries-empty">
          {t('webhooks.deliveriesNone')}
        </Text>
      )}
      {deliveries.data && rows.length > 0 && (
        <>
          <DataTable
            label={title}
            striped
            data-testid="webhook-deliveries-table"
            aria-busy={deliveries.isFetching}
            style={stale ? { opacity: 0.5 } : undefined}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('webhooks.deliveryColumns.event')}</Table.Th>
                <Table.Th>{t('webhooks.deliveryColumns.status')}</Table.Th>
                <Table.Th>{t('webhooks.deliveryColumns.response')}</Table.Th>
                <Table.Th>{t('webhooks.deliveryColumns.time')}</Table.Th>
                <Table.Th>{t('webhooks.deliveryColumns.date')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('webhooks.deliveryColumns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((delivery) => (
                <Table.Tr key={delivery.id} data-testid="webhook-delivery-row">
                  <Table.Td>
                    <Text size="sm">{t(eventNameKey(delivery.eventType))}</Text>
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {delivery.eventId}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      color={STATUS_COLOURS[delivery.status]}
                      variant="light"
                      data-testid="webhook-delivery-status"
                    >
                      {t(`webhooks.deliveryStatus.${delivery.status}`)}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      {t('webhooks.attempts', { count: delivery.attempts })}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {delivery.responseStatus ?? (delivery.attempts > 0 ? t('webhooks.noResponse') : '—')}
                    </Text>
                    {delivery.lastError && (
                      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {delivery.lastError}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {delivery.responseMs === null ? '—' : t('webhooks.milliseconds', { ms: delivery.responseMs })}
                  </Table.Td>
                  <Table.Td>
                    <time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt, locale)}</time>
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="light"
                      loading={resend.isPending && resend.variables.id === delivery.id}
                      onClick={() => resend.mutate(delivery)}
                      aria-label={t('webhooks.resendLabel', { event: delivery.eventId })}
                      data-testid="webhook-delivery-resend"
                    >
                      {t('webhooks.resend')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
          <Pagination
            offset={deliveries.data.offset}
            pageLength={DEFAULT_PAGE_LENGTH}
            total={deliveries.data.total}
            totalCapped={deliveries.data.totalCapped}
            onChange={setOffset}
          />
        </>
      )}
    </Stack>
  );
}
