import { Alert, Button, Group, NativeSelect, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/use-translation';
import { z } from 'zod/mini';
import type { CustomConfig, Customization } from '../../../../common/api/customizations';
import { CUSTOMIZATION_VERSION_TYPES, type CustomizationVersionType } from '../../../../common/domain';
import {
  createCustomization,
  customizationKeys,
  customizationQuery,
  updateCustomization,
  validateCustomization,
} from '../../../api/customizations';
import { licenceKeys } from '../../../api/licences';
import { DelayedLoader } from '../../../components/DelayedLoader';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../../components/FormModal';
import { apiErrorText } from '../../../components/forms';
import { JsonEditor } from '../../../components/JsonEditor';
import { LoadError } from '../../../components/LoadError';
import { notify } from '../../../components/notify';
import { useSchemaForm } from '../../../components/use-schema-form';
import { ConfigProblems, configProblemsOf } from './ConfigProblems';
import { CustomizationExample } from './CustomizationExample';
import { useIdempotencyKey } from '../../../components/use-idempotency-key';

/** Message keys of the form's own checks (client/i18n `customization.errors.*`). */
const INVALID_JSON = 'customization.errors.invalidJson';
const REQUIRED = 'errors.required';

/** The configuration as written: a JSON object, or null when it is not one. */
function parseConfig(text: string): CustomConfig | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as CustomConfig) : null;
  } catch {
    return null;
  }
}

/** Spec 5: version type and configuration required, the configuration valid JSON (an object). */
const CustomizationForm = z.object({
  versionType: z.enum(CUSTOMIZATION_VERSION_TYPES, { error: REQUIRED }),
  customConfig: z.string().check(
    z.refine((text) => text.trim() !== '', { message: REQUIRED, abort: true }),
    z.refine((text) => parseConfig(text) !== null, { message: INVALID_JSON }),
  ),
});

interface Values extends Record<string, unknown> {
  versionType: CustomizationVersionType;
  enabled: boolean;
  customConfig: string;
}

const writeConfig = (config: CustomConfig) => JSON.stringify(config, null, 2);

/** The licence whose product is customized for its customer. */
export interface CustomizedLicence {
  customerId: number;
  productKey: string;
  productName: string;
  /** its customization, or null when it has none yet (the modal then creates it) */
  customizationId: number | null;
}

interface FormProps {
  licence: CustomizedLicence;
  customization: Customization | null;
}

function CustomizationFormBody({ licence, customization }: FormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { close } = useFormModal();
  const editing = customization !== null;
  // what the server answered the caller may do with it: reading only shows what is stored
  const readOnly = customization !== null && !customization.can.edit;
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: {
      versionType: customization?.versionType ?? 'stable',
      enabled: customization?.enabled ?? true,
      customConfig: customization ? writeConfig(customization.customConfig) : '',
    },
    schema: CustomizationForm,
  });
  const request = (values: Values) => ({
    versionType: values.versionType,
    enabled: values.enabled,
    customConfig: parseConfig(values.customConfig) ?? {},
  });

  const validation = useMutation({
    mutationFn: (values: Values) =>
      validateCustomization({ customerId: licence.customerId, productKey: licence.productKey, ...request(values) }),
  });
  const idempotencyKey = useIdempotencyKey();
  const save = useModalMutation(
    (values: Values) =>
      customization
        ? updateCustomization(customization.id, request(values))
        : createCustomization(
            { customerId: licence.customerId, productKey: licence.productKey, ...request(values) },
            idempotencyKey(values),
          ),
    {
      onSuccess: async (saved) => {
        notify({
          status: 'success',
          message: t(editing ? 'customization.updated' : 'customization.created', { product: saved.productName }),
        });
        close();
        queryClient.setQueryData(customizationKeys.one(saved.id), saved);
        // The licences list shows the licence's new customization.
        await queryClient.invalidateQueries({ queryKey: licenceKeys.all(licence.customerId) });
      },
      // The configuration's problems are listed under the editor; the other fields show their own.
      onError: showFieldErrors,
    },
  );

  const configEmpty = form.values.customConfig.trim() === '';
  const saveProblems = configProblemsOf(save.error);
  const setConfig = (text: string) => {
    form.setFieldValue('customConfig', text);
    // a check of another text says nothing about this one
    validation.reset();
  };

  return (
    <form ref={ref} onSubmit={onSubmit((values) => save.mutate(values))} noValidate data-testid="customization-form">
      <Stack gap="sm">
        {readOnly && (
          <Alert color="gray" data-testid="customization-read-only">
            {t('customization.readOnly')}
          </Alert>
        )}
        <Group grow align="flex-end" wrap="wrap">
          <NativeSelect
            label={t('customization.versionType')}
            name="versionType"
            disabled={readOnly}
            miw="10rem"
            data={CUSTOMIZATION_VERSION_TYPES.map((value) => ({
              value,
              label: t(`customization.versionTypes.${value}`),
            }))}
            {...form.getInputProps('versionType')}
          />
          <Switch
            label={t('customization.enabled')}
            name="enabled"
            disabled={readOnly}
            mb={8}
            {...form.getInputProps('enabled', { type: 'checkbox' })}
          />
        </Group>
        <JsonEditor
          label={t('customization.config')}
          value={form.values.customConfig}
          onChange={setConfig}
          error={form.errors.customConfig as string | undefined}
          minHeight="12rem"
          required
          readOnly={readOnly}
        />
        {!readOnly && (
          <Group justify="flex-start">
            <Button
              variant="light"
              disabled={configEmpty}
              loading={validation.isPending}
              onClick={() => {
                const checked = form.validateField('customConfig');
                if (!checked.hasError) validation.mutate(form.getValues());
              }}
              data-testid="customization-validate"
            >
              {t('customization.validate')}
            </Button>
          </Group>
        )}
        {validation.data && <ConfigProblems problems={validation.data.problems} />}
        {validation.isError && (
          <Alert color="red" role="alert" data-testid="customization-validate-error">
            {t('customization.invalid', { error: apiErrorText(validation.error, t) })}
          </Alert>
        )}
        {!readOnly && (
          <CustomizationExample
            customerId={licence.customerId}
            productKey={licence.productKey}
            onLoad={(example) => setConfig(writeConfig(example.customConfig))}
          />
        )}
        {save.error ? (
          <Alert color="red" role="alert" data-testid="customization-feedback">
            {t(editing ? 'customization.updateError' : 'customization.createError', {
              error: apiErrorText(save.error, t),
            })}
          </Alert>
        ) : null}
        {saveProblems.length > 0 && <ConfigProblems problems={saveProblems} />}
        <Group justify="flex-end">
          <ModalCancelButton>{t('customization.cancel')}</ModalCancelButton>
          {!readOnly && (
            <Button type="submit" loading={save.isPending}>
              {t('customization.save')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** Loads the licence's customization (a loader meanwhile), then the form; a licence with none gets a new one. */
function CustomizationContent({ licence }: { licence: CustomizedLicence }) {
  const existing = useQuery({
    ...customizationQuery(licence.customizationId ?? 0),
    enabled: licence.customizationId !== null,
  });
  if (licence.customizationId === null) return <CustomizationFormBody licence={licence} customization={null} />;
  if (existing.data) return <CustomizationFormBody licence={licence} customization={existing.data} />;
  return (
    <>
      {existing.isPending && <DelayedLoader testId="customization-loader" />}
      <LoadError query={existing} messageKey="customization.loadError" testId="customization-load-error" />
    </>
  );
}

interface CustomizationModalProps {
  opened: boolean;
  /** the customer's name: the modal's title */
  customerName: string;
  /** the licence being customized, or null while the modal is closed */
  licence: CustomizedLicence | null;
  /** a new value gives a fresh form */
  formKey: number;
  onClose: () => void;
}

/**
 * Spec "Customization modal": titled with the customer's name and the product's; version type,
 * enabled, the configuration in a JSON editor, a validate action and example loading. Creates the
 * licence's customization when it has none, else edits it; one whose `can.edit` is false (a role
 * that reads the licences' details without managing them) is shown, not changed.
 */
export function CustomizationModal({ opened, customerName, licence, formKey, onClose }: CustomizationModalProps) {
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={
        <span>
          <Text component="span" fw={700} display="block">
            {customerName}
          </Text>
          <Text component="span" size="sm" display="block" data-testid="customization-product">
            {licence?.productName}
          </Text>
        </span>
      }
    >
      {licence && <CustomizationContent key={formKey} licence={licence} />}
    </FormModal>
  );
}
