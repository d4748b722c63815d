import { Alert, Button, Group, Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { z } from 'zod/mini';
import type { Customer } from '../../../common/api/customers';
import { DEBOUNCE_MS } from '../../../common/constants';
import { accountExecutiveCandidatesQuery, customerKeys, setAccountExecutive } from '../../api/customers';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { useSchemaForm } from '../../components/use-schema-form';

interface Values extends Record<string, unknown> {
  userId: string | null;
}

const PickSchema = z.object({
  userId: z
    .string({ error: 'customers.accountExecutive.required' })
    .check(z.minLength(1, 'customers.accountExecutive.required')),
});

/** The picker: enabled account executives searched on the server by name or e-mail (300 ms debounce). */
function AccountExecutiveForm({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { close } = useFormModal();
  const [search, setSearch] = useState('');
  const [filter] = useDebouncedValue(search.trim(), DEBOUNCE_MS);
  const candidates = useQuery({
    ...accountExecutiveCandidatesQuery(customer.id, filter),
    placeholderData: keepPreviousData,
  });
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: { userId: null },
    schema: PickSchema,
  });
  const options = (candidates.data?.data ?? []).map((c) => ({
    value: String(c.id),
    label: `${c.fullName} (${c.email})`,
  }));

  const save = useModalMutation(
    (values: Values) => setAccountExecutive(customer.id, { userId: Number(values.userId) }),
    {
      onSuccess: async (saved) => {
        notify({
          status: 'success',
          message: t('customers.accountExecutive.saved', {
            name: saved.accountExecutive?.fullName ?? '',
            customer: saved.name,
          }),
        });
        close();
        await queryClient.invalidateQueries({ queryKey: customerKeys.all });
      },
      onError: showFieldErrors,
    },
  );

  return (
    <form
      ref={ref}
      onSubmit={onSubmit((values) => save.mutate(values))}
      noValidate
      data-testid="account-executive-form"
    >
      <Stack gap="sm">
        <Select
          label={t('customers.accountExecutive.search')}
          placeholder={t('customers.accountExecutive.searchPlaceholder')}
          searchable
          data-autofocus
          data={options}
          searchValue={search}
          onSearchChange={setSearch}
          // the server has already searched: show its answer as it is
          filter={({ options: all }) => all}
          nothingFoundMessage={candidates.isFetching ? undefined : t('customers.accountExecutive.nothingFound')}
          comboboxProps={{ withinPortal: false }}
          data-testid="account-executive-select"
          {...form.getInputProps('userId')}
        />
        {save.error ? (
          <Alert color="red" role="alert" data-testid="account-executive-feedback">
            {t('customers.accountExecutive.saveError', { error: apiErrorText(save.error, t) })}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <ModalCancelButton>{t('customers.accountExecutive.cancel')}</ModalCancelButton>
          <Button type="submit" loading={save.isPending}>
            {t('customers.accountExecutive.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface AccountExecutiveModalProps {
  opened: boolean;
  customer: Customer;
  /** a new key for each opening: the picker starts empty */
  formKey: number;
  onClose: () => void;
}

/** The account executive's picker in its dialog, whose code comes when it is first opened (decision 092). */
export function AccountExecutiveModal({ opened, customer, formKey, onClose }: AccountExecutiveModalProps) {
  const { t } = useTranslation();
  return (
    <FormModal opened={opened} onClose={onClose} title={t('customers.accountExecutive.title')}>
      <AccountExecutiveForm key={formKey} customer={customer} />
    </FormModal>
  );
}
