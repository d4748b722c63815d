import { Button, NativeSelect, Stack, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { useSearchParams } from 'react-router';
import type { Customer } from '../../../../common/api/customers';
import type { Licence } from '../../../../common/api/licences';
import { VERSION_PAGE_LENGTH } from '../../../../common/api/catalogue';
import { previousReleasesCount, versionsQueryOptions } from '../../../api/catalogue';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import { allLicencesQuery, licencesQuery } from '../../../api/licences';
import { DelayedLoader } from '../../../components/DelayedLoader';
import { LoadError } from '../../../components/LoadError';
import { AccountSection } from '../AccountSection';
import { useArtifactDownload } from '../versions/use-artifact-download';
import { VersionCard } from '../versions/VersionCard';
import { firstProduct, PRODUCT_PARAM } from '../versions/preselect';
import { type ScriptAccess, ScriptAccessPanel, useScriptAccess } from '../versions/script-access';
import { SincePicker } from '../versions/SincePicker';
import { type AccessLevel, PLATFORMS } from '../../../../common/domain';

/**
 * Versions of the customer's products with their downloads (spec 2 "Versions list"). The products
 * are those of the customer's licences, SaaS ones left out: they run at the vendor and have nothing
 * to download. A technical contact finds a product selected once the licences are in (spec 4
 * "Customer page load"): the first product of the list; the others choose one, and only then are its
 * versions asked for.
 */
export function VersionsSection({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  // The licences table's first page is usually all of them, and then it is the one request made.
  const firstPage = useQuery({ ...licencesQuery(customer.id, 0), staleTime: FIRST_SCREEN_FRESH_MS });
  const all = useQuery({
    ...allLicencesQuery(customer.id),
    enabled: (firstPage.data?.total ?? 0) > (firstPage.data?.data.length ?? 0),
  });
  const licences = all.isEnabled ? all : firstPage;
  const products = (licences.data?.data ?? []).filter((licence) => !licence.isSaas);
  // The product chosen is in the address (`versions-product`): Back and a shared link show its versions.
  const [params, setParams] = useSearchParams();
  const chosen = params.get(PRODUCT_PARAM);
  const setChosen = (productKey: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (productKey) next.set(PRODUCT_PARAM, productKey);
        else next.delete(PRODUCT_PARAM);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
  const preselect = customer.yourRole === 'technicalContact' ? (firstProduct(products)?.productKey ?? null) : null;
  const selected = products.find((licence) => licence.productKey === (chosen ?? preselect)) ?? null;

  return (
    <AccountSection title={t('downloads.title')} testId="versions-section">
      <Stack gap="sm" mt="sm">
        {licences.isPending && <DelayedLoader testId="versions-licences-loader" />}
        <LoadError query={licences} messageKey="downloads.licencesError" testId="versions-licences-error" />
        {licences.isSuccess && products.length === 0 && (
          <Text c="dimmed" data-testid="versions-no-product">
            {t('downloads.noProduct')}
          </Text>
        )}
        {products.length > 0 && (
          <NativeSelect
            label={t('downloads.product')}
            value={selected?.productKey ?? ''}
            onChange={(event) => setChosen(event.currentTarget.value || null)}
            data={[
              ...(selected ? [] : [{ value: '', label: t('downloads.chooseProduct') }]),
              ...products.map((licence) => ({ value: licence.productKey, label: licence.productName })),
            ]}
            maw={360}
            data-testid="versions-product"
          />
        )}
        {selected && <ProductVersions key={selected.productKey} customer={customer} licence={selected} />}
      </Stack>
    </AccountSection>
  );
}

/**
 * The versions the licence allows, newest first, a page at a time: "Load N previous releases" adds
 * the next page below the loaded ones (spec 9: N is min(remaining, page length)).
 */
function ProductVersions({ customer, licence }: { customer: Customer; licence: Licence }) {
  const { t } = useTranslation();
  const [pages, setPages] = useState(1);
  const options = { customerId: customer.id };
  // the last page's answer (shared with its list below, so asked once) says how many remain
  const last = useQuery(
    versionsQueryOptions(licence.productKey, { ...options, pageOffset: (pages - 1) * VERSION_PAGE_LENGTH }),
  );
  const downloads = useArtifactDownload(customer.id, licence);
  const canDownload = customer.can.download;
  const script = useScriptAccess(licence, canDownload);
  // the versions loaded (the pages' own queries, not asked again): the choices of the installed
  // one, and the platforms with files, each with its `latest` address
  const loadedPages = useQueries({
    queries: Array.from({ length: pages }, (_, page) =>
      versionsQueryOptions(licence.productKey, { ...options, pageOffset: page * VERSION_PAGE_LENGTH }),
    ),
  });
  const loadedVersions = loadedPages.flatMap((page) => (page.isPlaceholderData ? [] : (page.data?.data ?? [])));
  const platforms = PLATFORMS.filter((platform) =>
    loadedVersions.some((version) => version.artifacts.some((artifact) => artifact.platform === platform)),
  );
  const loaded = last.data ? last.data.offset + last.data.data.length : 0;
  const more = last.data ? previousReleasesCount(loaded, last.data.total) : 0;
  // After "Load N previous releases" the focus goes to the first release it brought, not to the page's
  // start (the button itself goes once nothing remains).
  const listRef = useRef<HTMLDivElement>(null);
  const [focusFrom, setFocusFrom] = useState<number | null>(null);
  useEffect(() => {
    if (focusFrom === null || !last.isSuccess || last.isPlaceholderData) return;
    listRef.current?.querySelectorAll<HTMLElement>('[data-testid="version-card"]')[focusFrom]?.focus();
    setFocusFrom(null);
  }, [focusFrom, last.isSuccess, last.isPlaceholderData]);

  return (
    <Stack gap="sm" ref={listRef} data-testid="versions-list">
      <SincePicker customerId={customer.id} licence={licence} loaded={loadedVersions} />
      {script.access && (
        <ScriptAccessPanel
          access={script.access}
          productName={licence.productName}
          platforms={platforms}
          onReveal={script.setRevealed}
        />
      )}
      {Array.from({ length: pages }, (_, page) => (
        <VersionsPage
          key={page}
          productKey={licence.productKey}
          productName={licence.productName}
          customerId={customer.id}
          pageOffset={page * VERSION_PAGE_LENGTH}
          downloads={canDownload ? downloads : null}
          script={script.access}
          viewerLevel={licence.accessLevel}
        />
      ))}
      {more > 0 && (
        <Button
          variant="default"
          onClick={() => {
            setFocusFrom(loaded);
            setPages((count) => count + 1);
          }}
          loading={last.isPlaceholderData}
          style={{ alignSelf: 'flex-start' }}
          data-testid="versions-load-more"
        >
          {t('downloads.loadMore', { count: more })}
        </Button>
      )}
    </Stack>
  );
}

interface VersionsPageProps {
  productKey: string;
  productName: string;
  customerId: number;
  pageOffset: number;
  downloads: ReturnType<typeof useArtifactDownload> | null;
  script: ScriptAccess | null;
  viewerLevel: AccessLevel;
}

function VersionsPage(props: VersionsPageProps) {
  const { productKey, productName, customerId, pageOffset, downloads, script, viewerLevel } = props;
  const { t } = useTranslation();
  const versions = useQuery({
    ...versionsQueryOptions(productKey, { customerId, pageOffset }),
    placeholderData: undefined,
  });
  return (
    <>
      {versions.isPending && <DelayedLoader testId="versions-loader" />}
      <LoadError query={versions} messageKey="downloads.loadError" testId="versions-load-error" />
      {pageOffset === 0 && versions.data?.total === 0 && (
        <Stack gap={4} role="status" data-testid="versions-empty">
          <Text fw={500}>{t('downloads.empty', { product: productName })}</Text>
          <Text size="sm" c="dimmed">
            {t('downloads.emptyHint')}
          </Text>
        </Stack>
      )}
      {versions.data?.data.map((version) => (
        <VersionCard
          key={version.id}
          version={version}
          downloads={downloads}
          script={script}
          viewerLevel={viewerLevel}
        />
      ))}
    </>
  );
}
