import { ActionIcon, Alert, Anchor, Button, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { z } from 'zod/mini';
import type { Customer } from '../../../common/api/customers';
import { DEBOUNCE_MS } from '../../../common/constants';
import type { Role } from '../../../common/roles';
import { accountExecutiveCandidatesQuery, customerKeys, setAccountExecutive } from '../../api/customers';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';
import { apiErrorText } from '../../components/forms';
import { PencilIcon } from '../../components/icons';
import { notify } from '../../components/notify';
import { useSchemaForm } from '../../components/use-schema-form';

/** The customer's own people read "your account executive". */
const CONTACT_ROLES: readonly Role[] = ['businessOwner', 'technicalContact', 'endUser'];

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

/**
 * The account executive of a customer, in the customer page's footer: their name and e-mail, and for
 * the roles with manageLicences there (account executive, admin, product manager) a pencil that opens
 * the picker (PUT /api/customers/{id}/account-executive, decision 025).
 */
export function AccountExecutiveControl({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const canChange = customer.can.changeAccountExecutive;
  const [modal, setModal] = useState({ opened: false, formKey: 0 });
  const executive = customer.accountExecutive;
  if (!executive && !canChange) return null;
  return (
    <Group gap={6} data-testid="footer-account-executive">
      <Text size="sm">
        {executive ? (
          <>
            {CONTACT_ROLES.includes(customer.yourRole)
              ? t('account.footer.accountExecutive')
              : t('customers.accountExecutive.label')}{' '}
            <Anchor href={`mailto:${executive.email}`}>{executive.fullName}</Anchor>
            {` (${executive.email})`}
          </>
        ) : (
          t('customers.accountExecutive.none')
        )}
      </Text>
      {canChange && (
        <>
          <Tooltip label={t('customers.accountExecutive.change')} withinPortal={false}>
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={t('customers.accountExecutive.change')}
              onClick={() => setModal((m) => ({ opened: true, formKey: m.formKey + 1 }))}
              data-testid="account-executive-change"
            >
              <PencilIcon size={14} />
            </ActionIcon>
          </Tooltip>
          <FormModal
            opened={modal.opened}
            onClose={() => setModal((m) => ({ ...m, opened: false }))}
            title={t('customers.accountExecutive.title')}
          >
            <AccountExecutiveForm key={modal.formKey} customer={customer} />
          </FormModal>
        </>
      )}
    </Group>
  );
}
