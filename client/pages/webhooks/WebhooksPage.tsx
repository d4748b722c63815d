import { Badge, Button, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useSearchParams } from 'react-router';
import type { CreatedWebhookEndpoint, WebhookEndpoint } from '../../../common/api/webhooks';
import { deleteWebhook, updateWebhook, webhookEndpointsQuery, webhookKeys } from '../../api/webhooks';
import { usePageTitle } from '../../app/title';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DataTable } from '../../components/DataTable';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/LoadError';
import { notify } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { DeliveriesSection } from './DeliveriesSection';
import { eventNameKey, SecretModal, WebhookModal } from './WebhookModal';

/** The address parameter naming the endpoint whose deliveries show (its page is `page`). */
const ENDPOINT_PARAM = 'endpoint';

interface ModalState {
  opened: boolean;
  endpoint: WebhookEndpoint | null;
  formKey: number;
}

/**
 * Webhooks (docs/webhooks.md), for admins: the endpoints with their events and state; adding one
 * (its signing secret then shown once), editing, enabling or disabling, deleting after a
 * confirmation; and one endpoint's deliveries, chosen and paged in the address.
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  usePageTitle(t('webhooks.title'));
  const queryClient = useQueryClient();
  const endpoints = useQuery(webhookEndpointsQuery());
  const [params, setParams] = useSearchParams();
  const [modal, setModal] = useState<ModalState>({ opened: false, endpoint: null, formKey: 0 });
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const openModal = (endpoint: WebhookEndpoint | null) =>
    setModal((m) => ({ opened: true, endpoint, formKey: m.formKey + 1 }));
  const reload = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });

  const shownId = Number(params.get(ENDPOINT_PARAM));
  const shown = endpoints.data?.data.find((endpoint) => endpoint.id === shownId) ?? null;
  const showDeliveries = (endpoint: WebhookEndpoint | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (endpoint) next.set(ENDPOINT_PARAM, String(endpoint.id));
        else next.delete(ENDPOINT_PARAM);
        next.delete('page');
        return next;
      },
      { preventScrollReset: true },
    );

  const toggle = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => updateWebhook(endpoint.id, { enabled: !endpoint.enabled }),
    onSuccess: (endpoint) => {
      notify({ status: 'success', message: t(endpoint.enabled ? 'webhooks.enabledNow' : 'webhooks.disabledNow') });
      void reload();
    },
    onError: (error) =>
      notify({ status: 'error', message: t('webhooks.updateFailed', { error: apiErrorText(error, t) }) }),
  });
  const remove = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => deleteWebhook(endpoint.id),
    onSuccess: (_answer, endpoint) => {
      setDeleting(null);
      if (endpoint.id === shownId) showDeliveries(null);
      notify({ status: 'success', message: t('webhooks.deleted') });
      void reload();
    },
    onError: (error) => {
      setDeleting(null);
      notify({ status: 'error', message: t('webhooks.deleteFailed', { error: apiErrorText(error, t) }) });
    },
  });

  const list = endpoints.data?.data ?? [];
  return (
    <Stack gap="md" py="md">
      <PageHeader
        title={t('webhooks.title')}
        description={t('webhooks.intro')}
        actions={
          <Button leftSection={<PlusIcon size={16} />} onClick={() => openModal(null)} data-testid="webhook-add">
            {t('webhooks.add')}
          </Button>
        }
      />
      {endpoints.isPending && <DelayedLoader />}
      <LoadError query={endpoints} messageKey="webhooks.loadFailed" testId="webhooks-error" />
      {endpoints.data && list.length === 0 && (
        <Text c="dimmed" role="status" data-testid="webhooks-empty">
          {t('webhooks.none')}
        </Text>
      )}
      {list.length > 0 && (
        <DataTable label={t('webhooks.title')} striped data-testid="webhooks-table" aria-busy={endpoints.isFetching}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('webhooks.columns.url')}</Table.Th>
              <Table.Th>{t('webhooks.columns.events')}</Table.Th>
              <Table.Th>{t('webhooks.columns.status')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('webhooks.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((endpoint) => (
              <Table.Tr key={endpoint.id} data-testid="webhook-row">
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{endpoint.url}</Table.Td>
                <Table.Td>
                  <Text size="sm" title={endpoint.events.map((event) => t(eventNameKey(event))).join('\n')}>
                    {t('webhooks.eventCount', { count: endpoint.events.length })}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={endpoint.enabled ? 'teal' : 'gray'} variant="light">
                    {endpoint.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="wrap">
                    <Button
                      size="compact-sm"
                      variant={endpoint.id === shownId ? 'light' : 'subtle'}
                      aria-label={t('webhooks.deliveriesLabel', { url: endpoint.url })}
                      aria-pressed={endpoint.id === shownId}
                      onClick={() => showDeliveries(endpoint)}
                      data-testid="webhook-deliveries-open"
                    >
                      {t('webhooks.deliveries')}
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      aria-label={t('webhooks.editLabel', { url: endpoint.url })}
                      onClick={() => openModal(endpoint)}
                      data-testid="webhook-edit"
                    >
                      {t('webhooks.edit')}
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      loading={toggle.isPending && toggle.variables.id === endpoint.id}
                      aria-label={t(endpoint.enabled ? 'webhooks.disableLabel' : 'webhooks.enableLabel', {
                        url: endpoint.url,
                      })}
                      onClick={() => toggle.mutate(endpoint)}
                      data-testid="webhook-toggle"
                    >
                      {endpoint.enabled ? t('webhooks.disable') : t('webhooks.enable')}
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      aria-label={t('webhooks.deleteLabel', { url: endpoint.url })}
                      onClick={() => setDeleting(endpoint)}
                      data-testid="webhook-delete"
                    >
                      {t('webhooks.delete')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </DataTable>
      )}
      {shown && <DeliveriesSection key={shown.id} endpoint={shown} onClose={() => showDeliveries(null)} />}

      <WebhookModal
        opened={modal.opened}
        endpoint={modal.endpoint}
        formKey={modal.formKey}
        onClose={() => setModal((m) => ({ ...m, opened: false }))}
        onCreated={setCreated}
      />
      <SecretModal created={created} onClose={() => setCreated(null)} />
      <ConfirmModal
        opened={deleting !== null}
        title={t('webhooks.deleteTitle')}
        message={deleting ? t('webhooks.deleteConfirm', { url: deleting.url }) : ''}
        cancelLabel={t('webhooks.cancel')}
        confirmLabel={t('webhooks.delete')}
        confirmColor="red"
        pending={remove.isPending}
        testId="webhook-delete-confirm"
        confirmTestId="webhook-delete-yes"
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </Stack>
  );
}
