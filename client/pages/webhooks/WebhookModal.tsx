import { Alert, Button, Checkbox, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import {
  type CreatedWebhookEndpoint,
  CreateWebhookBody,
  UpdateWebhookBody,
  type WebhookEndpoint,
} from '../../../common/api/webhooks';
import { WEBHOOK_EVENTS, WEBHOOK_URL_MAX, type WebhookEvent } from '../../../common/webhooks';
import { createWebhook, updateWebhook, webhookKeys } from '../../api/webhooks';
import { FormModal, Modal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';
import { copyToClipboard } from '../../components/copy-to-clipboard';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { useIdempotencyKey } from '../../components/use-idempotency-key';
import { useSchemaForm } from '../../components/use-schema-form';

/** The text key of an event's name (i18next reads dots as nesting). */
export const eventNameKey = (event: WebhookEvent) => `webhooks.eventNames.${event.replace('.', '_')}`;

interface Values extends Record<string, unknown> {
  url: string;
  events: WebhookEvent[];
}

/** Creating sends the URL and events; editing sends them too (the state has its own button). */
function WebhookForm({
  endpoint,
  onCreated,
}: {
  endpoint: WebhookEndpoint | null;
  onCreated: (created: CreatedWebhookEndpoint) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { close } = useFormModal();
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: { url: endpoint?.url ?? '', events: endpoint?.events ?? [] },
    schema: endpoint ? UpdateWebhookBody : CreateWebhookBody,
  });
  const idempotencyKey = useIdempotencyKey();
  const save = useModalMutation(
    async (values: Values) => {
      const body = { url: values.url, events: values.events };
      if (endpoint) return { updated: await updateWebhook(endpoint.id, UpdateWebhookBody.parse(body)) };
      return { created: await createWebhook(CreateWebhookBody.parse(body), idempotencyKey(body)) };
    },
    {
      onSuccess: async (answer) => {
        close();
        if (answer.created) onCreated(answer.created);
        else notify({ status: 'success', message: t('webhooks.updated') });
        await queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints });
      },
      onError: showFieldErrors,
    },
  );
  const feedback = save.error
    ? t(endpoint ? 'webhooks.updateFailed' : 'webhooks.createFailed', { error: apiErrorText(save.error, t) })
    : null;

  return (
    <form ref={ref} noValidate data-testid="webhook-form" onSubmit={onSubmit((values) => save.mutate(values))}>
      <Stack gap="sm">
        <TextInput
          label={t('webhooks.url')}
          description={t('webhooks.urlHint')}
          name="url"
          type="url"
          inputMode="url"
          autoComplete="off"
          maxLength={WEBHOOK_URL_MAX}
          required
          withAsterisk={false}
          data-autofocus
          {...form.getInputProps('url')}
        />
        <Checkbox.Group
          label={t('webhooks.eventsLegend')}
          data-testid="webhook-events"
          {...form.getInputProps('events')}
        >
          <Stack gap={6} mt={6}>
            {WEBHOOK_EVENTS.map((event) => (
              <Checkbox key={event} value={event} label={t(eventNameKey(event))} name="events" />
            ))}
          </Stack>
        </Checkbox.Group>
        {feedback && (
          <Alert color="red" role="alert" data-testid="webhook-form-feedback">
            {feedback}
          </Alert>
        )}
        <Group justify="flex-end">
          <ModalCancelButton>{t('webhooks.cancel')}</ModalCancelButton>
          <Button type="submit" loading={save.isPending}>
            {endpoint ? t('webhooks.save') : t('webhooks.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface WebhookModalProps {
  opened: boolean;
  /** the endpoint being edited, or null to create one */
  endpoint: WebhookEndpoint | null;
  /** a new value gives a fresh form */
  formKey: number;
  onClose: () => void;
  onCreated: (created: CreatedWebhookEndpoint) => void;
}

export function WebhookModal({ opened, endpoint, formKey, onClose, onCreated }: WebhookModalProps) {
  const { t } = useTranslation();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={endpoint ? t('webhooks.editTitle') : t('webhooks.createTitle')}
      size="lg"
    >
      <WebhookForm key={formKey} endpoint={endpoint} onCreated={onCreated} />
    </FormModal>
  );
}

/** The new endpoint's signing secret, shown this once, with its copy button. */
export function SecretModal({ created, onClose }: { created: CreatedWebhookEndpoint | null; onClose: () => void }) {
  const { t } = useTranslation();
  async function copy(secret: string) {
    try {
      await copyToClipboard(secret);
      notify({ status: 'success', message: t('webhooks.secretCopied') });
    } catch (error) {
      notify({ status: 'error', message: t('webhooks.copyFailed', { error: apiErrorText(error, t) }) });
    }
  }
  return (
    <Modal
      opened={created !== null}
      onClose={onClose}
      title={t('webhooks.createdTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('app.close') }}
      size="lg"
    >
      {created && (
        <Stack data-testid="webhook-secret-modal">
          <Alert color="yellow" role="note">
            <Text size="sm">{t('webhooks.shownOnce')}</Text>
          </Alert>
          <Code block data-testid="webhook-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {created.secret}
          </Code>
          <Group justify="space-between">
            <Button variant="light" onClick={() => void copy(created.secret)} data-testid="webhook-secret-copy">
              {t('webhooks.copySecret')}
            </Button>
            <Button onClick={onClose}>{t('webhooks.done')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
