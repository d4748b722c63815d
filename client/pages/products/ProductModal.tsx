import { Alert, Button, Group, NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { CreateProductBody, type Product, UpdateProductBody } from '../../../common/api/catalogue';
import { CUSTOMIZATION_TYPES } from '../../../common/domain';
import { catalogueKeys, createProduct, updateProduct } from '../../api/catalogue';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { useSchemaForm } from '../../components/use-schema-form';
import { useIdempotencyKey } from '../../components/use-idempotency-key';

interface ProductModalProps {
  opened: boolean;
  /** null: a new product */
  product: Product | null;
  /** a new form each time the modal opens */
  formKey: number;
  onClose: () => void;
}

type ProductFormValues = { key: string; name: string; description: string; customizationType: string };

/** Spec 2 "Product modal": key (creation only), name, description, customization type (none by default). */
export function ProductModal({ opened, product, formKey, onClose }: ProductModalProps) {
  const { t } = useTranslation();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={product ? t('catalogue.productModal.editTitle') : t('catalogue.productModal.createTitle')}
    >
      <ProductForm key={formKey} product={product} />
    </FormModal>
  );
}

function ProductForm({ product }: { product: Product | null }) {
  const { t } = useTranslation();
  const { close } = useFormModal();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const editing = product !== null;
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<ProductFormValues>({
    initialValues: {
      key: product?.key ?? '',
      name: product?.name ?? '',
      description: product?.description ?? '',
      customizationType: product?.customizationType ?? 'none',
    },
    schema: editing ? UpdateProductBody : CreateProductBody,
    select: ({ key, ...rest }) => (editing ? rest : { key, ...rest }),
  });
  const idempotencyKey = useIdempotencyKey();
  const save = useModalMutation(
    async (values: ProductFormValues) => {
      const { key, ...rest } = values;
      return product
        ? updateProduct(product.key, UpdateProductBody.parse(rest))
        : createProduct(CreateProductBody.parse({ key, ...rest }), idempotencyKey(values));
    },
    {
      onSuccess: async (saved) => {
        notify({
          status: 'success',
          message: t(editing ? 'catalogue.productModal.updated' : 'catalogue.productModal.created', {
            name: saved.name,
          }),
        });
        close();
        await queryClient.invalidateQueries({ queryKey: catalogueKeys.all });
      },
      onError: (error) => {
        showFieldErrors(error);
        const text = apiErrorText(error, t);
        setFailure(
          t(editing ? 'catalogue.productModal.updateError' : 'catalogue.productModal.createError', { error: text }),
        );
      },
    },
  );
  return (
    <form
      ref={ref}
      noValidate
      data-testid="product-form"
      onSubmit={onSubmit((values) => {
        setFailure(null);
        save.mutate(values);
      })}
    >
      <Stack gap="sm">
        {!editing && (
          <TextInput
            label={t('catalogue.fields.key')}
            description={t('catalogue.fields.keyHint')}
            name="key"
            required
            data-autofocus
            {...form.getInputProps('key')}
          />
        )}
        <TextInput
          label={t('catalogue.fields.name')}
          name="name"
          required
          data-autofocus={editing || undefined}
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('catalogue.fields.description')}
          name="description"
          required
          rows={3}
          {...form.getInputProps('description')}
        />
        <NativeSelect
          label={t('catalogue.fields.customizationType')}
          name="customizationType"
          data={CUSTOMIZATION_TYPES.map((value) => ({ value, label: t(`catalogue.customizationTypes.${value}`) }))}
          {...form.getInputProps('customizationType')}
        />
        {failure && (
          <Alert color="red" role="alert" data-testid="product-modal-feedback">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <ModalCancelButton>{t('catalogue.cancel')}</ModalCancelButton>
          <Button type="submit" loading={save.isPending} data-testid="product-submit">
            {editing ? t('catalogue.save') : t('catalogue.productModal.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
