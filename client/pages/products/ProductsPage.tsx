import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { productsQuery } from '../../api/catalogue';
import { useLocalize } from '../../app/locale';
import { useProfile } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { PlusIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { lazyFormDialog } from '../../components/FormModal';

// its form and schema come when it is first opened (decision 092)
const ProductModal = lazyFormDialog(() => import('./ProductModal').then((module) => module.ProductModal));

/** Spec 2 "Product list": title, Add for admins, a loader, the products linking to their pages. */
export function ProductsPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('products.title'));
  const canAdd = useProfile().data?.can.addProduct === true;
  const products = useQuery(productsQuery());
  const [modal, setModal] = useState({ opened: false, formKey: 0 });
  const list = products.data?.data ?? [];
  return (
    <Stack gap="md" py="md" data-testid="products-page">
      <PageHeader
        title={t('products.title')}
        actions={
          canAdd && (
            <Button
              leftSection={<PlusIcon size={16} />}
              onClick={() => setModal((m) => ({ opened: true, formKey: m.formKey + 1 }))}
              data-testid="product-add"
            >
              {t('catalogue.addProduct')}
            </Button>
          )
        }
      />
      {products.isPending && <DelayedLoader testId="products-loader" />}
      {products.isError && (
        <Alert color="red" role="alert">
          {t('catalogue.productsError', { error: apiErrorText(products.error, t) })}
        </Alert>
      )}
      {products.isSuccess && list.length === 0 && <Text c="dimmed">{t('catalogue.noProducts')}</Text>}
      {list.length > 0 && (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} data-testid="products-list">
          {list.map((product) => (
            <li key={product.key} data-testid="product-item">
              <Anchor component={Link} to={localize(`/products/${encodeURIComponent(product.key)}`)} fw={600}>
                {product.name}
              </Anchor>
              {product.description && (
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {product.description}
                </Text>
              )}
            </li>
          ))}
        </Stack>
      )}
      {canAdd && (
        <ProductModal
          opened={modal.opened}
          product={null}
          formKey={modal.formKey}
          onClose={() => setModal((m) => ({ ...m, opened: false }))}
        />
      )}
    </Stack>
  );
}
