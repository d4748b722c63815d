import { Alert, Button, Code, Group, Stack, Table, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { type CreatedProductToken, CreateProductTokenBody, type ProductToken } from '../../../common/api/catalogue';
import { formatDate } from '../../../common/format';
import {
  createProductToken,
  curlCommand,
  productTokensQuery,
  revokeProductToken,
  tokenKeys,
} from '../../api/artifacts';
import { ConfirmModal } from '../../components/ConfirmModal';
import { FormModal, Modal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';
import { copyToClipboard } from '../../components/copy-to-clipboard';
import { apiErrorText } from '../../components/forms';
import { PlusIcon } from '../../components/icons';
import { notify } from '../../components/notify';
import { useSchemaForm } from '../../components/use-schema-form';
import { useIdempotencyKey } from '../../components/use-idempotency-key';

/**
 * A product's API tokens (decision 036), for productManager and admin: the list (name, created, last
 * used), creating one (the token is shown once, with its copy button and the `curl -T` command a
 * release pipeline runs), and revoking one after a confirmation.
 */
export function ProductTokensSection({ productKey }: { productKey: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tokens = useQuery(productTokensQuery(productKey));
  const [creating, setCreating] = useState({ opened: false, formKey: 0 });
  const [created, setCreated] = useState<CreatedProductToken | null>(null);
  const [revoking, setRevoking] = useState<ProductToken | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: tokenKeys.all(productKey) });

  const revoke = useMutation({
    mutationFn: (token: ProductToken) => revokeProductToken(productKey, token.id),
    onSuccess: (_answer, token) => {
      setRevoking(null);
      notify({ status: 'success', message: t('productTokens.revoked', { name: token.name }) });
      void reload();
    },
    onError: (error) => {
      setRevoking(null);
      notify({ status: 'error', message: t('productTokens.revokeFailed', { error: apiErrorText(error, t) }) });
    },
  });

  async function copy(text: string, message: string) {
    try {
      await copyToClipboard(text);
      notify({ status: 'success', message });
    } catch (error) {
      notify({ status: 'error', message: t('productTokens.copyFailed', { error: apiErrorText(error, t) }) });
    }
  }

  const command = created ? curlCommand(window.location.origin, created.token, '$VERSION_ID', 'linux', '"$FILE"') : '';

  return (
    <Stack gap="xs" data-testid="product-tokens">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('productTokens.title')}
        </Title>
        <Button
          leftSection={<PlusIcon size={16} />}
          onClick={() => setCreating((c) => ({ opened: true, formKey: c.formKey + 1 }))}
          data-testid="product-token-add"
        >
          {t('productTokens.add')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('productTokens.intro')}
      </Text>
      {tokens.isError && (
        <Text c="red" role="alert">
          {t('productTokens.loadFailed', { error: apiErrorText(tokens.error, t) })}
        </Text>
      )}
      {tokens.data && tokens.data.data.length === 0 && <Text c="dimmed">{t('productTokens.none')}</Text>}
      {tokens.data && tokens.data.data.length > 0 && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('productTokens.columns.name')}</Table.Th>
              <Table.Th>{t('productTokens.columns.created')}</Table.Th>
              <Table.Th>{t('productTokens.columns.lastUsed')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('productTokens.columns.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.data.data.map((token) => (
              <Table.Tr key={token.id} data-testid="product-token-row">
                <Table.Td>{token.name}</Table.Td>
                <Table.Td>{formatDate(token.createdAt)}</Table.Td>
                <Table.Td>{token.lastUsedAt ? formatDate(token.lastUsedAt) : t('productTokens.never')}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    onClick={() => setRevoking(token)}
                    aria-label={t('productTokens.revokeLabel', { name: token.name })}
                  >
                    {t('productTokens.revoke')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <FormModal
        opened={creating.opened}
        onClose={() => setCreating((c) => ({ ...c, opened: false }))}
        title={t('productTokens.add')}
      >
        <CreateTokenForm
          key={creating.formKey}
          productKey={productKey}
          onCreated={(token) => {
            setCreated(token);
            void reload();
          }}
        />
      </FormModal>

      <Modal
        opened={created !== null}
        onClose={() => setCreated(null)}
        title={t('productTokens.createdTitle')}
        centered
        closeButtonProps={{ 'aria-label': t('app.close') }}
        size="lg"
      >
        {created && (
          <Stack>
            <Text>{t('productTokens.shownOnce', { name: created.name })}</Text>
            <Code block data-testid="product-token-value" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {created.token}
            </Code>
            <Group>
              <Button variant="light" onClick={() => void copy(created.token, t('productTokens.tokenCopied'))}>
                {t('productTokens.copyToken')}
              </Button>
            </Group>
            <Text size="sm">{t('productTokens.curlIntro')}</Text>
            <Code block data-testid="product-token-curl" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {command}
            </Code>
            <Group justify="space-between">
              <Button variant="light" onClick={() => void copy(command, t('productTokens.commandCopied'))}>
                {t('productTokens.copyCommand')}
              </Button>
              <Button onClick={() => setCreated(null)}>{t('productTokens.done')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>

      <ConfirmModal
        opened={revoking !== null}
        title={t('productTokens.revokeTitle')}
        message={revoking ? t('productTokens.revokeConfirm', { name: revoking.name }) : ''}
        cancelLabel={t('productTokens.cancel')}
        confirmLabel={t('productTokens.revoke')}
        confirmColor="red"
        pending={revoke.isPending}
        testId="product-token-revoke-confirm"
        confirmTestId="product-token-revoke-yes"
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate(revoking)}
      />
    </Stack>
  );
}

/** The new token's name; once created, the section shows the token (only this once). */
function CreateTokenForm({
  productKey,
  onCreated,
}: {
  productKey: string;
  onCreated: (token: CreatedProductToken) => void;
}) {
  const { t } = useTranslation();
  const { close } = useFormModal();
  const [failure, setFailure] = useState<string | null>(null);
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<CreateProductTokenBody>({
    initialValues: { name: '' },
    schema: CreateProductTokenBody,
  });
  const idempotencyKey = useIdempotencyKey();
  const create = useModalMutation(
    (values: CreateProductTokenBody) =>
      createProductToken(productKey, CreateProductTokenBody.parse(values), idempotencyKey(values)),
    {
      onSuccess: (token) => {
        close();
        onCreated(token);
      },
      onError: (error) => {
        showFieldErrors(error);
        setFailure(t('productTokens.createFailed', { error: apiErrorText(error, t) }));
      },
    },
  );
  return (
    <form
      ref={ref}
      noValidate
      data-testid="product-token-form"
      onSubmit={onSubmit((values) => {
        setFailure(null);
        create.mutate(values);
      })}
    >
      <Stack>
        <TextInput
          label={t('productTokens.columns.name')}
          description={t('productTokens.nameHint')}
          name="name"
          maxLength={100}
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <ModalCancelButton>{t('productTokens.cancel')}</ModalCancelButton>
          <Button type="submit" loading={create.isPending}>
            {t('productTokens.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
