import { Alert, Box, Button, Group, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { CreateVersionBody, UpdateVersionBody, type Version } from '../../../common/api/catalogue';
import { VERSION_TYPES } from '../../../common/domain';
import { catalogueKeys, createVersion, updateVersion } from '../../api/catalogue';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { useSchemaForm } from '../../components/use-schema-form';
import { ArtifactsPanel } from './ArtifactsPanel';
import { useIdempotencyKey } from '../../components/use-idempotency-key';

interface VersionModalProps {
  opened: boolean;
  productKey: string;
  /** null: a new version */
  version: Version | null;
  formKey: number;
  onClose: () => void;
}

type VersionFormValues = { title: string; type: string; semVer: string; description: string };

/**
 * Spec 2 "Product version modal": create, or edit the version selected. Once published, a version
 * changes only its description and type (spec 4): title and semVer are shown but locked.
 */
export function VersionModal({ opened, productKey, version, formKey, onClose }: VersionModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={
        version
          ? t('catalogue.versionModal.editTitle', { version: version.semVer })
          : t('catalogue.versionModal.createTitle')
      }
    >
      <VersionForm key={formKey} productKey={productKey} version={version} />
      {version && (
        <Box mt="lg" data-testid="version-artifacts">
          <ArtifactsPanel
            version={version}
            onChanged={() => void queryClient.invalidateQueries({ queryKey: catalogueKeys.product(productKey) })}
          />
        </Box>
      )}
    </FormModal>
  );
}

function VersionForm({ productKey, version }: { productKey: string; version: Version | null }) {
  const { t } = useTranslation();
  const { close } = useFormModal();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const published = version?.published ?? false;
  const toBody = ({ title, type, semVer, description }: VersionFormValues) =>
    published ? { type, description } : { title, type, semVer, description };
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<VersionFormValues>({
    initialValues: {
      title: version?.title ?? '',
      type: version?.type ?? 'stable',
      semVer: version?.semVer ?? '',
      description: version?.description ?? '',
    },
    schema: version ? UpdateVersionBody : CreateVersionBody,
    select: toBody,
  });
  const idempotencyKey = useIdempotencyKey();
  const save = useModalMutation(
    (values: VersionFormValues) =>
      version
        ? updateVersion(version.id, UpdateVersionBody.parse(toBody(values)))
        : createVersion(productKey, CreateVersionBody.parse(toBody(values)), idempotencyKey(values)),
    {
      onSuccess: async (saved) => {
        notify({
          status: 'success',
          message: t(version ? 'catalogue.versionModal.updated' : 'catalogue.versionModal.created', {
            version: saved.semVer,
          }),
        });
        close();
        await queryClient.invalidateQueries({ queryKey: catalogueKeys.product(productKey) });
      },
      onError: (error) => {
        showFieldErrors(error);
        const text = apiErrorText(error, t);
        setFailure(
          t(version ? 'catalogue.versionModal.updateError' : 'catalogue.versionModal.createError', { error: text }),
        );
      },
    },
  );
  return (
    <form
      ref={ref}
      noValidate
      data-testid="version-form"
      onSubmit={onSubmit((values) => {
        setFailure(null);
        save.mutate(values);
      })}
    >
      <Stack gap="sm">
        {published && <Text size="sm">{t('catalogue.versionModal.publishedHint')}</Text>}
        <TextInput
          label={t('catalogue.fields.title')}
          name="title"
          required={!published}
          disabled={published}
          data-autofocus={!published || undefined}
          {...form.getInputProps('title')}
        />
        <NativeSelect
          label={t('catalogue.fields.type')}
          name="type"
          data={VERSION_TYPES.map((value) => ({ value, label: t(`downloads.types.${value}`) }))}
          {...form.getInputProps('type')}
        />
        <TextInput
          label={t('catalogue.fields.semVer')}
          description={t('catalogue.fields.semVerHint')}
          name="semVer"
          required={!published}
          disabled={published}
          {...form.getInputProps('semVer')}
        />
        <Textarea
          label={t('catalogue.fields.versionDescription')}
          description={t('catalogue.fields.markdownHint')}
          name="description"
          required
          rows={6}
          data-autofocus={published || undefined}
          {...form.getInputProps('description')}
        />
        {version && version.descriptionHtml && (
          <Box data-testid="version-description-preview">
            <Text size="sm" fw={500}>
              {t('catalogue.versionModal.rendered')}
            </Text>
            <div
              className="versions-description"
              // rendered and sanitised by the server: no raw HTML, no script links
              dangerouslySetInnerHTML={{ __html: version.descriptionHtml }}
            />
          </Box>
        )}
        {failure && (
          <Alert color="red" role="alert" data-testid="version-modal-feedback">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <ModalCancelButton>{t('catalogue.cancel')}</ModalCancelButton>
          <Button type="submit" loading={save.isPending} data-testid="version-submit">
            {version ? t('catalogue.save') : t('catalogue.versionModal.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
