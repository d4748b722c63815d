import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { MAX_ID } from '../../../common/api/common';
import { PRODUCT_KEY, SEMVER } from '../../../common/api/catalogue';
import type { Customer } from '../../../common/api/customers';
import type { Licence } from '../../../common/api/licences';
import { MAX_PAGE_LENGTH } from '../../../common/pagination';
import { previousReleasesCount, versionsSinceQuery } from '../../api/catalogue';
import { allLicencesQuery } from '../../api/licences';
import { useCustomerAccess } from '../../app/customer-access';
import { useLocalize } from '../../app/locale';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { LoadError } from '../../components/LoadError';
import { useTranslation } from '../../i18n/use-translation';
import { NotFoundPage } from '../error/NotFoundPage';
import { PRODUCT_PARAM } from '../account/versions/preselect';
import { ScriptAccessPanel, useScriptAccess } from '../account/versions/script-access';
import { useArtifactDownload } from '../account/versions/use-artifact-download';
import { VersionCard } from '../account/versions/VersionCard';
import { SincePicker } from '../account/versions/SincePicker';

/**
 * "What changed since the version I run" (docs/decisions/081): /accounts/:id/changes/:productKey/:semVer
 * shows, newest first, every version newer than the one named that the customer's licence of the
 * product allows, with its notes whole and its files.
 */
export function ChangesPage() {
  const params = useParams();
  const customerId = /^\d{1,10}$/.test(params.id ?? '') ? Number(params.id) : 0;
  const productKey = params.productKey ?? '';
  const since = params.since ?? '';
  if (customerId < 1 || customerId > MAX_ID || !PRODUCT_KEY.test(productKey) || !SEMVER.test(since)) {
    return <NotFoundPage />;
  }
  return (
    <ChangesOfCustomer
      key={`${customerId}/${productKey}`}
      customerId={customerId}
      productKey={productKey}
      since={since}
    />
  );
}

function ChangesOfCustomer({
  customerId,
  productKey,
  since,
}: {
  customerId: number;
  productKey: string;
  since: string;
}) {
  const { t } = useTranslation();
  const access = useCustomerAccess(customerId);
  const licences = useQuery({ ...allLicencesQuery(customerId), enabled: access.customer !== null });
  const licence = licences.data?.data.find((l) => l.productKey === productKey && !l.isSaas) ?? null;
  usePageTitle(
    licence
      ? t('releases.since.title', { product: licence.productName, version: since })
      : t('releases.since.pageTitle'),
  );
  if (access.notFound) return <NotFoundPage />;
  if (access.query.isError)
    return <LoadError query={access.query} messageKey="downloads.loadError" testId="changes-error" />;
  if (licences.isError)
    return <LoadError query={licences} messageKey="downloads.licencesError" testId="changes-error" />;
  if (!access.customer || !licences.data) return <DelayedLoader testId="changes-loader" />;
  if (!licence) return <NotFoundPage />;
  return <Changes customer={access.customer} licence={licence} since={since} />;
}

function Changes({ customer, licence, since }: { customer: Customer; licence: Licence; since: string }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const downloads = useArtifactDownload(customer.id, licence);
  const script = useScriptAccess(licence, customer.can.download);
  const [pages, setPages] = useState(1);
  const last = useQuery(versionsSinceQuery(licence.productKey, customer.id, since, (pages - 1) * MAX_PAGE_LENGTH));
  const loaded = last.data ? last.data.offset + last.data.data.length : 0;
  const more = last.data ? previousReleasesCount(loaded, last.data.total, MAX_PAGE_LENGTH) : 0;
  const back = `${localize(`/accounts/${customer.id}`)}?${new URLSearchParams({ [PRODUCT_PARAM]: licence.productKey })}`;
  return (
    <Stack gap="md" py="md" data-testid="changes-page">
      <Anchor component={Link} to={back} size="sm" data-testid="changes-back">
        {t('releases.since.back', { customer: customer.name })}
      </Anchor>
      <Title order={1} size="h2">
        {t('releases.since.title', { product: licence.productName, version: since })}
      </Title>
      <Text size="sm" c="dimmed">
        {t('releases.since.intro', { version: since })}
      </Text>
      <SincePicker customerId={customer.id} licence={licence} current={since} />
      {script.access && (
        <ScriptAccessPanel
          access={script.access}
          productName={licence.productName}
          platforms={[]}
          onReveal={script.setRevealed}
          // the page's sections: no section heading stands between them and the h1
          headingOrder={2}
        />
      )}
      {Array.from({ length: pages }, (_, page) => (
        <ChangesPageOfVersions
          key={page}
          customer={customer}
          licence={licence}
          since={since}
          pageOffset={page * MAX_PAGE_LENGTH}
          downloads={customer.can.download ? downloads : null}
          script={script.access}
        />
      ))}
      {more > 0 && (
        <Button
          variant="default"
          onClick={() => setPages((count) => count + 1)}
          loading={last.isFetching}
          style={{ alignSelf: 'flex-start' }}
          data-testid="changes-load-more"
        >
          {t('downloads.loadMore', { count: more })}
        </Button>
      )}
    </Stack>
  );
}

function ChangesPageOfVersions({
  customer,
  licence,
  since,
  pageOffset,
  downloads,
  script,
}: {
  customer: Customer;
  licence: Licence;
  since: string;
  pageOffset: number;
  downloads: ReturnType<typeof useArtifactDownload> | null;
  script: ReturnType<typeof useScriptAccess>['access'];
}) {
  const { t } = useTranslation();
  const versions = useQuery(versionsSinceQuery(licence.productKey, customer.id, since, pageOffset));
  return (
    <>
      {versions.isPending && <DelayedLoader testId="changes-versions-loader" />}
      <LoadError query={versions} messageKey="downloads.loadError" testId="changes-versions-error" />
      {pageOffset === 0 && versions.data?.total === 0 && (
        <Alert role="status" color="green" data-testid="changes-none">
          {t('releases.since.none', { version: since })}
        </Alert>
      )}
      {versions.data?.data.map((version) => (
        <VersionCard
          key={version.id}
          version={version}
          downloads={downloads}
          script={script}
          viewerLevel={licence.accessLevel}
          foldNotes={false}
          headingOrder={2}
        />
      ))}
    </>
  );
}
