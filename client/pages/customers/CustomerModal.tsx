import { Alert, Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import { CreateCustomerBody, type Customer, UpdateCustomerBody } from '../../../common/api/customers';
import { CUSTOMER_KEY_LENGTH } from '../../../common/customer-key';
import { createCustomer, customerKeys, updateCustomer } from '../../api/customers';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { useSchemaForm } from '../../components/use-schema-form';
import { useIdempotencyKey } from '../../components/use-idempotency-key';

interface Values extends Record<string, unknown> {
  name: string;
  customerKey: string;
  selfService: boolean;
}

/** Creating sends the three fields of spec 7; editing only name and customerKey. */
const bodyOf = (values: Values, customer: Customer | null) =>
  customer
    ? { name: values.name, customerKey: values.customerKey }
    : { name: values.name, customerKey: values.customerKey, selfService: values.selfService };

function CustomerForm({ customer }: { customer: Customer | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { close } = useFormModal();
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: {
      name: customer?.name ?? '',
      customerKey: customer?.customerKey ?? '',
      selfService: customer?.selfService ?? false,
    },
    schema: customer ? UpdateCustomerBody : CreateCustomerBody,
    select: (values) => bodyOf(values, customer),
  });

  const idempotencyKey = useIdempotencyKey();
  const save = useModalMutation(
    (values: Values) =>
      customer
        ? updateCustomer(customer.id, UpdateCustomerBody.parse(bodyOf(values, customer)))
        : createCustomer(CreateCustomerBody.parse(bodyOf(values, customer)), idempotencyKey(values)),
    {
      onSuccess: async (saved) => {
        notify({
          status: 'success',
          message: t(customer ? 'customers.modal.updated' : 'customers.modal.created', {
            name: saved.name,
            customerKey: saved.customerKey,
          }),
        });
        close();
        // The lists and the customer itself: everything under the customers key.
        await queryClient.invalidateQueries({ queryKey: customerKeys.all });
      },
      onError: showFieldErrors,
    },
  );
  const feedback = save.error
    ? t(customer ? 'customers.modal.updateError' : 'customers.modal.createError', {
        error: apiErrorText(save.error, t),
      })
    : null;

  return (
    <form ref={ref} onSubmit={onSubmit((values) => save.mutate(values))} noValidate data-testid="customer-modal">
      <Stack gap="sm">
        <TextInput
          label={t('customers.modal.name')}
          name="name"
          autoComplete="off"
          data-autofocus
          required
          withAsterisk={false}
          {...form.getInputProps('name')}
        />
        <TextInput
          label={t('customers.modal.customerKey')}
          name="customerKey"
          autoComplete="off"
          description={customer ? undefined : t('customers.modal.customerKeyHint', { count: CUSTOMER_KEY_LENGTH })}
          required={customer !== null}
          withAsterisk={false}
          maxLength={CUSTOMER_KEY_LENGTH + 10}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          {...form.getInputProps('customerKey')}
        />
        {!customer && (
          <Checkbox
            label={t('customers.modal.selfService')}
            name="selfService"
            {...form.getInputProps('selfService', { type: 'checkbox' })}
          />
        )}
        {feedback && (
          <Alert color="red" role="alert" data-testid="customer-modal-feedback">
            {feedback}
          </Alert>
        )}
        <Group justify="flex-end">
          <ModalCancelButton>{t('customers.modal.cancel')}</ModalCancelButton>
          <Button type="submit" loading={save.isPending} data-testid="customer-modal-save">
            {t('customers.modal.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface CustomerModalProps {
  opened: boolean;
  /** The customer being edited (from its page), or null to create one (from the list). */
  customer: Customer | null;
  /** A new value gives a fresh form (a new customer, or the same one opened again). */
  formKey: number;
  onClose: () => void;
}

/**
 * The customer modal (spec 2 "Modals", 5 "Customer", 8 "Customer"): name required; customerKey,
 * if given, exactly 10 characters (generated when left empty on creation); selfService on creation.
 * Closing it reloads the customer being edited (spec 4).
 */
export function CustomerModal({ opened, customer, formKey, onClose }: CustomerModalProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const close = () => {
    onClose();
    if (customer) void queryClient.invalidateQueries({ queryKey: customerKeys.one(customer.id) });
  };
  return (
    <FormModal
      opened={opened}
      onClose={close}
      title={customer ? t('customers.modal.editTitle') : t('customers.modal.createTitle')}
    >
      <CustomerForm key={formKey} customer={customer} />
    </FormModal>
  );
}
