import { Alert, Button, Checkbox, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import type { Licence } from '../../../../common/api/licences';
import { ACCESS_LEVELS } from '../../../../common/domain';
import { formatDayMonthYear } from '../../../../common/format';
import { isCalendarDay } from '../../../../common/licence-status';
import { endingLicenceKeys } from '../../../api/ending-licences';
import {
  createLicence,
  licenceKeys,
  licensableProductsQuery,
  renewLicence,
  replaceDownloadSecret,
} from '../../../api/licences';
import { useLocale } from '../../../app/locale';
import { ModalCancelButton, useFormModal, useModalMutation } from '../../../components/FormModal';
import { apiErrorText } from '../../../components/forms';
import { JsonEditor } from '../../../components/JsonEditor';
import { notify } from '../../../components/notify';
import { useSchemaForm } from '../../../components/use-schema-form';
import { productLabel } from './product-label';
import { CreateLicenceForm, createValues, type LicenceFormValues, renewLicenceForm, renewValues } from './licence-form';
import { useIdempotencyKey } from '../../../components/use-idempotency-key';

function useReloadLicences(customerId: number) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: licenceKeys.all(customerId) }),
      queryClient.invalidateQueries({ queryKey: endingLicenceKeys.all }),
    ]);
}

/** The fields both forms share: access level, dates, data, entity resolution. */
function LicenceFields({
  form,
  withStartDate,
}: {
  form: ReturnType<typeof useSchemaForm<LicenceFormValues>>['form'];
  withStartDate: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  // The browser's own date picker (an input of type date) speaks in calendar days, 'YYYY-MM-DD', never a
  // local Date that a time zone could move by a day; the day chosen is repeated below it as spec 9
  // writes licence dates (DD MMM YYYY, the month in the interface's language).
  const dateField = (field: 'startDate' | 'endDate') => {
    const day = form.values[field];
    const written = isCalendarDay(day) ? formatDayMonthYear(day, locale) : null;
    return (
      <TextInput
        type="date"
        label={t(`licences.modal.${field}`)}
        name={field}
        required
        withAsterisk={false}
        data-testid={field === 'startDate' ? 'licence-start-date' : 'licence-end-date'}
        description={written}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        {...form.getInputProps(field)}
      />
    );
  };
  return (
    <>
      <NativeSelect
        label={t('licences.modal.accessLevel')}
        name="accessLevel"
        data={ACCESS_LEVELS.map((value) => ({ value, label: t(`licences.accessLevels.${value}`) }))}
        {...form.getInputProps('accessLevel')}
      />
      {withStartDate && dateField('startDate')}
      {dateField('endDate')}
      <JsonEditor
        label={t('licences.modal.data')}
        value={form.values.data}
        onChange={(text) => form.setFieldValue('data', text)}
        error={form.errors.data as string | undefined}
        placeholder={t('licences.modal.dataHint')}
        minHeight="8rem"
      />
      <Checkbox
        label={t('licences.modal.entityResolution')}
        name="hasEntityResolution"
        {...form.getInputProps('hasEntityResolution', { type: 'checkbox' })}
      />
    </>
  );
}

/** Spec 8's failure text above Cancel and the submit button. */
function FormFooter({ failure, saving, submit }: { failure: string | null; saving: boolean; submit: string }) {
  const { t } = useTranslation();
  return (
    <>
      {failure && (
        <Alert color="red" role="alert" data-testid="licence-modal-feedback">
          {failure}
        </Alert>
      )}
      <Group justify="flex-end">
        <ModalCancelButton>{t('licences.modal.cancel')}</ModalCancelButton>
        <Button type="submit" loading={saving} data-testid="licence-submit">
          {submit}
        </Button>
      </Group>
    </>
  );
}

function CreateForm({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const { close } = useFormModal();
  const reload = useReloadLicences(customerId);
  const products = useQuery(licensableProductsQuery(customerId));
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<LicenceFormValues>({
    initialValues: createValues(''),
    schema: CreateLicenceForm,
  });
  const first = products.data?.data[0]?.key;
  // Spec 5: the first product is preselected.
  useEffect(() => {
    if (first && !form.values.productKey) form.setFieldValue('productKey', first);
    // only when the products arrive
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first]);
  const idempotencyKey = useIdempotencyKey();
  const save = useModalMutation(
    (values: LicenceFormValues) => createLicence(customerId, CreateLicenceForm.parse(values), idempotencyKey(values)),
    {
      onSuccess: async () => {
        notify({ status: 'success', message: t('licences.modal.created') });
        close();
        await reload();
      },
      onError: showFieldErrors,
    },
  );
  const list = products.data?.data ?? [];
  const none = products.isSuccess && list.length === 0;
  // a customer holding a licence of every product can be given none: the modal says why and offers
  // no form that could only fail
  if (none)
    return (
      <Stack gap="sm" data-testid="licence-create-none">
        <Alert color="yellow">{t('licences.modal.noProduct')}</Alert>
        <Group justify="flex-end">
          <ModalCancelButton>{t('licences.modal.close')}</ModalCancelButton>
        </Group>
      </Stack>
    );
  return (
    <form ref={ref} onSubmit={onSubmit((values) => save.mutate(values))} noValidate data-testid="licence-create-form">
      <Stack gap="sm">
        {products.isError && (
          <Alert color="red" role="alert">
            {t('licences.modal.productsError', { error: apiErrorText(products.error, t) })}
          </Alert>
        )}
        <NativeSelect
          label={t('licences.modal.product')}
          name="productKey"
          data-autofocus
          disabled={!products.isSuccess}
          data={list.map((product) => ({ value: product.key, label: productLabel(t, product) }))}
          {...form.getInputProps('productKey')}
        />
        <LicenceFields form={form} withStartDate />
        <FormFooter
          failure={save.error ? t('licences.modal.createFailed', { error: apiErrorText(save.error, t) }) : null}
          saving={save.isPending}
          submit={t('licences.modal.create')}
        />
      </Stack>
    </form>
  );
}

/** "Replace download key", after a confirmation: the old key stops working at once. */
function ReplaceDownloadKey({ licence }: { licence: Licence }) {
  const { t } = useTranslation();
  const reload = useReloadLicences(licence.customerId);
  const [confirming, setConfirming] = useState(false);
  // the focus follows the question: on "keep" when it opens, back on the button when it closes
  const button = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) keep.current?.focus();
    else if (asked.current) button.current?.focus();
    asked.current = confirming;
  }, [confirming]);
  const replace = useModalMutation(() => replaceDownloadSecret(licence.id), {
    onSuccess: async () => {
      setConfirming(false);
      notify({ status: 'success', message: t('licences.modal.keyReplaced') });
      await reload();
    },
    onError: (error) => {
      setConfirming(false);
      notify({ status: 'error', message: t('licences.modal.keyReplaceFailed', { error: apiErrorText(error, t) }) });
    },
  });
  if (!confirming) {
    return (
      <Group>
        <Button
          ref={button}
          variant="light"
          color="orange"
          onClick={() => setConfirming(true)}
          data-testid="licence-replace-key"
        >
          {t('licences.modal.replaceKey')}
        </Button>
      </Group>
    );
  }
  return (
    <Alert color="orange" title={t('licences.modal.replaceKeyTitle')} data-testid="licence-replace-key-confirm">
      <Stack gap="xs">
        <Text size="sm">{t('licences.modal.replaceKeyConfirm')}</Text>
        <Group gap="xs">
          <Button
            ref={keep}
            variant="default"
            size="compact-sm"
            onClick={() => setConfirming(false)}
            disabled={replace.isPending}
          >
            {t('licences.modal.keepKey')}
          </Button>
          <Button
            color="orange"
            size="compact-sm"
            loading={replace.isPending}
            onClick={() => replace.mutate()}
            data-testid="licence-replace-key-yes"
          >
            {t('licences.modal.replaceKeyYes')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function RenewForm({ licence }: { licence: Licence }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { close } = useFormModal();
  const reload = useReloadLicences(licence.customerId);
  const schema = renewLicenceForm(licence.startDate);
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<LicenceFormValues>({
    initialValues: renewValues(licence),
    schema,
  });
  const save = useModalMutation((values: LicenceFormValues) => renewLicence(licence.id, schema.parse(values)), {
    onSuccess: async () => {
      notify({ status: 'success', message: t('licences.modal.updated') });
      close();
      await reload();
    },
    onError: showFieldErrors,
  });
  return (
    <Stack gap="sm">
      <form ref={ref} onSubmit={onSubmit((values) => save.mutate(values))} noValidate data-testid="licence-renew-form">
        <Stack gap="sm">
          <Text size="sm" data-testid="licence-renew-subject">
            {t('licences.modal.renewSubtitle', { id: licence.id, product: productLabel(t, licence) })}
            {' · '}
            {t('licences.modal.startDate')}: {formatDayMonthYear(licence.startDate, locale)}
          </Text>
          <LicenceFields form={form} withStartDate={false} />
          <FormFooter
            failure={save.error ? t('licences.modal.updateFailed', { error: apiErrorText(save.error, t) }) : null}
            saving={save.isPending}
            submit={t('licences.modal.save')}
          />
        </Stack>
      </form>
      {licence.downloadSecret !== null && <ReplaceDownloadKey licence={licence} />}
    </Stack>
  );
}

interface LicenceFormProps {
  customerId: number;
  /** the licence to renew or edit, or null to add one */
  licence: Licence | null;
  /** a new value gives a fresh form */
  formKey: number;
}

/**
 * Spec "Licence create/renew" modal, its content (the licences section holds the modal): to renew or
 * edit `licence`, or to add one when it is null.
 */
export function LicenceForm({ customerId, licence, formKey }: LicenceFormProps) {
  return licence ? <RenewForm key={formKey} licence={licence} /> : <CreateForm key={formKey} customerId={customerId} />;
}
