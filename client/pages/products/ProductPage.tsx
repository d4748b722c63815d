import { ActionIcon, Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link, useParams } from 'react-router';
import { VERSION_PAGE_LENGTH, type Version } from '../../../common/api/catalogue';
import { catalogueKeys, productQuery, updateVersion, versionsQueryOptions } from '../../api/catalogue';
import { ApiError } from '../../api/client';
import { useLocalize } from '../../app/locale';
import type { PrefetchPageData } from '../../app/prefetch-page-data';
import { ROUTE_RULES, routeAccess } from '../../app/routing';
import { useProfile } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { DataTable } from '../../components/DataTable';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { PencilIcon, PlusIcon } from '../../components/icons';
import { notify } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { pageOffsetInAddress, usePageInAddress } from '../../components/use-searched-pages';
import { ProductTokensSection } from './ProductTokensSection';
import { ConfirmModal } from '../../components/ConfirmModal';
import { ErrorPage } from '../error/ErrorPage';
import '../account/versions/versions.css';
import { lazyFormDialog } from '../../components/FormModal';

// their forms and schemas come when first opened (decision 092)
const VersionModal = lazyFormDialog(() => import('./VersionModal').then((module) => module.VersionModal));
const ProductModal = lazyFormDialog(() => import('./ProductModal').then((module) => module.ProductModal));

/**
 * What the page's first render asks for (app/prefetch-page-data.ts): the product, whose name and
 * description head the page, and the page of versions in the address.
 */
export const prefetchData: PrefetchPageData = (queryClient, { path, search, profile }) => {
  if (routeAccess(ROUTE_RULES.products, profile).kind !== 'allow') return;
  const productKey = decodeURIComponent(path.split('/')[2] ?? '');
  if (!productKey) return;
  void queryClient.prefetchQuery(productQuery(productKey));
  const pageOffset = pageOffsetInAddress(search, 'page', VERSION_PAGE_LENGTH);
  void queryClient.prefetchQuery(versionsQueryOptions(productKey, { pageOffset }));
};

/** Spec 2 "Product page": /products/:key. */
export function ProductPage() {
  const { key = '' } = useParams();
  return <ProductView key={key} productKey={key} />;
}

function ProductView({ productKey }: { productKey: string }) {
  const { t } = useTranslation();
  const product = useQuery(productQuery(productKey));
  const profile = useProfile();
  const localize = useLocalize();
  const [edit, setEdit] = useState({ opened: false, formKey: 0 });
  usePageTitle(product.data?.name ?? t('products.title'));
  if (product.isError) {
    if (product.error instanceof ApiError && product.error.status === 404) return <ProductNotFound />;
    // the page's heading says what failed, with a retry, as every page that could not load
    const { error } = product;
    return (
      <ErrorPage
        statusCode={error instanceof ApiError && error.status >= 400 ? error.status : undefined}
        message={t('catalogue.productError', { error: apiErrorText(error, t) })}
        onRetry={() => void product.refetch()}
      />
    );
  }
  if (!product.data) return <DelayedLoader testId="product-loader" />;
  const canEdit = product.data.can.edit;
  return (
    <Stack gap="md" py="md" data-testid="product-page">
      <PageHeader
        title={product.data.name}
        description={product.data.description}
        actions={
          <>
            {/* where staff read a product's versions, its downloads are a link away */}
            {profile.data?.can.viewDownloadAnalytics && (
              <Button
                component={Link}
                to={`${localize('/analytics')}?${new URLSearchParams({ product: productKey })}`}
                variant="default"
                data-testid="product-analytics"
              >
                {t('catalogue.analytics')}
              </Button>
            )}
            {canEdit && (
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={t('catalogue.editProduct', { name: product.data.name })}
                onClick={() => setEdit((e) => ({ opened: true, formKey: e.formKey + 1 }))}
                data-testid="product-edit"
              >
                <PencilIcon size={18} />
              </ActionIcon>
            )}
          </>
        }
      />
      {canEdit && (
        <ProductModal
          opened={edit.opened}
          product={product.data}
          formKey={edit.formKey}
          onClose={() => setEdit((e) => ({ ...e, opened: false }))}
        />
      )}
      <VersionsTable productKey={productKey} canManage={product.data.can.manageVersions} />
      <ProductTokensSection productKey={productKey} />
    </Stack>
  );
}

/**
 * The product's versions. `canManage` (the product's `can.manageVersions`) offers a new version; each
 * row's own `can` offers its edit and its publication.
 */
function VersionsTable({ productKey, canManage }: { productKey: string; canManage: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { offset, setOffset } = usePageInAddress('page', VERSION_PAGE_LENGTH);
  const versions = useQuery(versionsQueryOptions(productKey, { pageOffset: offset }));
  const [modal, setModal] = useState<{ opened: boolean; versionId: number | null; formKey: number }>({
    opened: false,
    versionId: null,
    formKey: 0,
  });
  const [publishing, setPublishing] = useState<Version | null>(null);
  const rows = versions.data?.data ?? [];
  const rowActions = rows.some((version) => version.can.edit || version.can.publish);
  const open = (version: Version | null) =>
    setModal((m) => ({ opened: true, versionId: version?.id ?? null, formKey: m.formKey + 1 }));
  const publish = useMutation({
    mutationFn: (version: Version) => updateVersion(version.id, { published: true }),
    onSuccess: async (version) => {
      notify({ status: 'success', message: t('catalogue.publish.done', { version: version.semVer }) });
      setPublishing(null);
      await queryClient.invalidateQueries({ queryKey: catalogueKeys.product(productKey) });
    },
    onError: (error) => {
      notify({ status: 'error', message: t('catalogue.publish.failed', { error: apiErrorText(error, t) }) });
      setPublishing(null);
    },
  });
  return (
    <Stack gap="sm" data-testid="product-versions">
      <Group justify="space-between">
        <Title order={2}>{t('catalogue.versions')}</Title>
        {canManage && (
          <Button leftSection={<PlusIcon size={16} />} onClick={() => open(null)} data-testid="version-add">
            {t('catalogue.addVersion')}
          </Button>
        )}
      </Group>
      {versions.isPending && <DelayedLoader testId="versions-loader" />}
      {versions.isError && (
        <Alert color="red" role="alert">
          {t('catalogue.versionsError', { error: apiErrorText(versions.error, t) })}
        </Alert>
      )}
      {versions.isSuccess && rows.length === 0 && (
        <Stack gap={4} role="status" data-testid="versions-empty">
          <Text fw={500}>{t('catalogue.noVersions')}</Text>
          <Text size="sm" c="dimmed">
            {canManage
              ? t('catalogue.noVersionsManage', { add: t('catalogue.addVersion') })
              : t('catalogue.noVersionsWait')}
          </Text>
        </Stack>
      )}
      {rows.length > 0 && (
        <DataTable label={t('catalogue.versions')} minWidth={560} data-testid="versions-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('catalogue.columns.version')}</Table.Th>
              <Table.Th>{t('catalogue.columns.type')}</Table.Th>
              <Table.Th>{t('catalogue.columns.releaseDate')}</Table.Th>
              {rowActions && <Table.Th>{t('catalogue.columns.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((version) => (
              <Table.Tr key={version.id} data-testid="version-row" data-semver={version.semVer}>
                <Table.Td>
                  <Text fw={600} span>
                    {version.semVer}
                  </Text>{' '}
                  <Text span size="sm" c="dimmed">
                    {version.title}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="wrap">
                    <span>{t(`downloads.types.${version.type}`)}</span>
                    {version.latestFor.length > 0 && (
                      <Badge color="green" variant="filled" data-testid="version-latest">
                        {t('releases.badges.latestFor', {
                          levels: version.latestFor.map((level) => t(`licences.accessLevels.${level}`)).join(', '),
                        })}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  {version.releaseDate ?? (
                    <Badge variant="light" color="gray">
                      {t('catalogue.unpublished')}
                    </Badge>
                  )}
                </Table.Td>
                {rowActions && (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {version.can.edit && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          onClick={() => open(version)}
                          aria-label={t('catalogue.editVersion', { version: version.semVer })}
                          data-testid="version-edit"
                        >
                          {t('catalogue.edit')}
                        </Button>
                      )}
                      {version.can.publish && (
                        <Button
                          size="compact-sm"
                          variant="light"
                          onClick={() => setPublishing(version)}
                          aria-label={t('catalogue.publishVersion', { version: version.semVer })}
                          data-testid="version-publish"
                        >
                          {t('catalogue.publish.action')}
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </DataTable>
      )}
      <Pagination
        offset={offset}
        pageLength={VERSION_PAGE_LENGTH}
        total={versions.data?.total ?? 0}
        totalCapped={versions.data?.totalCapped ?? false}
        onChange={setOffset}
      />
      {(canManage || rowActions) && (
        <VersionModal
          opened={modal.opened}
          productKey={productKey}
          version={rows.find((v) => v.id === modal.versionId) ?? null}
          formKey={modal.formKey}
          onClose={() => setModal((m) => ({ ...m, opened: false }))}
        />
      )}
      <ConfirmModal
        opened={publishing !== null}
        title={t('catalogue.publish.title')}
        message={t('catalogue.publish.confirm', { version: publishing?.semVer ?? '' })}
        cancelLabel={t('catalogue.cancel')}
        confirmLabel={t('catalogue.publish.yes')}
        pending={publish.isPending}
        testId="version-publish-confirm"
        confirmTestId="version-publish-yes"
        onCancel={() => setPublishing(null)}
        onConfirm={() => publishing && publish.mutate(publishing)}
      />
    </Stack>
  );
}

function ProductNotFound() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('catalogue.notFound.title'));
  return (
    <Stack align="center" py="xl" gap="md" data-testid="product-not-found">
      <Title order={1}>{t('catalogue.notFound.title')}</Title>
      <Text ta="center">{t('catalogue.notFound.text')}</Text>
      <Anchor component={Link} to={localize('/products')}>
        {t('catalogue.notFound.back')}
      </Anchor>
    </Stack>
  );
}
