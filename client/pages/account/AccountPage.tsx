import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link, useParams, useSearchParams } from 'react-router';
import { MAX_ID } from '../../../common/api/common';
import type { Customer } from '../../../common/api/customers';
import { STORAGE_KEYS } from '../../../common/constants';
import { versionsQueryOptions } from '../../api/catalogue';
import { ApiError } from '../../api/client';
import { customerPageQuery, FIRST_SCREEN_FRESH_MS } from '../../api/customer-page';
import { licencesQuery } from '../../api/licences';
import { useCustomerAccess } from '../../app/customer-access';
import { useLocalize } from '../../app/locale';
import { useProfile } from '../../app/session';
import { storage } from '../../app/storage';
import { usePageTitle } from '../../app/title';
import { apiErrorText } from '../../components/forms';
import { ErrorPage } from '../error/ErrorPage';
import { AccountHeader } from './AccountHeader';
import { AccountPageSkeleton } from './AccountPageSkeleton';
import { usePaymentReturn } from './billing/use-payment-return';
import { accountSections } from './sections';
import { AccountFooter } from './sections/AccountFooter';
import { CloudInstancesSection } from './sections/CloudInstancesSection';
import { LicencesSection } from './sections/LicencesSection';
import { MembersSection } from './sections/MembersSection';
import { NothingToManageSection } from './sections/NothingToManageSection';
import { PaymentSection } from './sections/PaymentSection';
import { RecentActionsSection } from './sections/RecentActionsSection';
import { ResourcesSection } from './sections/ResourcesSection';
import { SubscriptionSection } from './sections/SubscriptionSection';
import { VersionsSection } from './sections/VersionsSection';
import { firstProduct, PRODUCT_PARAM } from './versions/preselect';
import { lazyFormDialog } from '../../components/FormModal';

// its form and schema come when it is first opened (decision 092)
const CustomerModal = lazyFormDialog(() => import('../customers/CustomerModal').then((module) => module.CustomerModal));

/** The id of the address, or null when it cannot name a customer (then the page is not found). */
function customerIdOf(param: string | undefined): number | null {
  if (!param || !/^\d{1,10}$/.test(param)) return null;
  const id = Number(param);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/** Spec 2 "Customer page": /accounts/:id. */
export function AccountPage() {
  const customerId = customerIdOf(useParams().id);
  if (customerId === null) return <AccountNotFound />;
  // A new customer starts with a fresh page: nothing of the previous one's state carries over.
  return <AccountView key={customerId} customerId={customerId} />;
}

function AccountView({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // One answer brings the customer and the first page of each list its role sees (decision 052);
  // the customer is then read from its own key, where the page's changes to it land.
  const first = useQuery(customerPageQuery(queryClient, customerId));
  // The page's one answer failed, other than by not finding the customer: the page asks for the
  // customer alone, and each section for its own list, which fails on its own with its retry.
  const pageFailed = first.isError && !(first.error instanceof ApiError && first.error.status === 404);
  const access = useCustomerAccess(customerId, {
    enabled: first.isSuccess || pageFailed,
    staleTime: FIRST_SCREEN_FRESH_MS,
  });
  const { query } = access;
  const customer = first.isSuccess || pageFailed ? access.customer : null;
  const shownOnce = useDeferredValue(customer);
  usePageTitle(customer?.name ?? t('account.title'));

  // A technical contact's page shows the versions of a product chosen from the licences: they are
  // asked for as soon as the page's answer is in, not once its sections have rendered.
  const [params] = useSearchParams();
  const chosenProduct = params.get(PRODUCT_PARAM);
  useEffect(() => {
    if (!customer || customer.yourRole !== 'technicalContact') return;
    const licences = queryClient.getQueryData(licencesQuery(customer.id, 0).queryKey)?.data ?? [];
    const productKey = chosenProduct ?? firstProduct(licences)?.productKey;
    if (productKey) void queryClient.prefetchQuery(versionsQueryOptions(productKey, { customerId: customer.id }));
  }, [customer, chosenProduct, queryClient]);

  usePaymentReturn(customerId);

  useEffect(() => {
    // Spec 4 "Login success": the customer the user last worked on is where the next sign-in leads.
    if (customer) storage.set(STORAGE_KEYS.customer, String(customer.id));
  }, [customer]);

  const failed = first.isError && !pageFailed ? first : query.isError ? query : null;
  // the customer does not exist or the user holds no role in it: the server does not tell which
  if (failed?.error instanceof ApiError && failed.error.status === 404) return <AccountNotFound />;
  if (failed) {
    const { error } = failed;
    return (
      <ErrorPage
        statusCode={error instanceof ApiError && error.status >= 400 ? error.status : undefined}
        message={apiErrorText(error, t)}
        onRetry={() => void failed.refetch()}
      />
    );
  }
  // The page's first render is its longest task (every section at once): it is done as a background
  // render that yields to the browser every few milliseconds, the skeleton staying until it is
  // ready, instead of holding the main thread (Lighthouse's total blocking time, decision 053).
  // Later changes of the customer render at once.
  if (!shownOnce) return <AccountPageSkeleton />;
  return <AccountContent customer={customer ?? shownOnce} />;
}

function AccountContent({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  // the licences' first page came with the page's answer: its total says whether there are any
  const licenceTotal = useQuery({
    ...licencesQuery(customer.id, 0),
    staleTime: FIRST_SCREEN_FRESH_MS,
    enabled: customer.can.viewLicences,
  }).data?.total;
  const sections = accountSections(customer, { licenceTotal });
  const service = (
    <>
      {sections.cloudInstances && <CloudInstancesSection customer={customer} />}
      {sections.subscription && <SubscriptionSection customer={customer} />}
    </>
  );
  const [edit, setEdit] = useState({ opened: false, formKey: 0 });
  // The first screen (the header, the payment screen, the licences) is committed and painted on its
  // own; the sections below it follow in a second background render. One commit of the whole page
  // held the main thread for its longest task (decision 053); two halves each hold it half as long,
  // and the first screen is painted before the second half is built. Until then the page keeps a
  // window's height, so the footer does not show and then move.
  const below = useDeferredValue(true, false);
  return (
    <Stack gap="md" py="md" data-testid="account-page">
      <AccountHeader
        customer={customer}
        header={sections.header}
        onEdit={() => setEdit((e) => ({ opened: true, formKey: e.formKey + 1 }))}
      />
      {sections.header.edit && (
        <CustomerModal
          opened={edit.opened}
          customer={customer}
          formKey={edit.formKey}
          onClose={() => setEdit((e) => ({ ...e, opened: false }))}
        />
      )}
      {sections.payment && <PaymentSection customer={customer} screen={sections.payment} />}
      {sections.subscriptionNotice && (
        <Alert color="yellow" data-testid="subscription-notice">
          {t('account.subscriptionNotice')}
        </Alert>
      )}
      {sections.serviceFirst && service}
      {sections.licences && <LicencesSection customer={customer} />}
      {below ? (
        <>
          {sections.versions && <VersionsSection customer={customer} />}
          {sections.members && <MembersSection customer={customer} />}
          {sections.recentActions && <RecentActionsSection customer={customer} />}
          {!sections.serviceFirst && service}
          {sections.nothingToManage && <NothingToManageSection customer={customer} />}
          {sections.resources && <ResourcesSection customer={customer} />}
          <AccountFooter customer={customer} />
        </>
      ) : (
        <div style={{ minHeight: '100dvh' }} data-testid="account-page-below-loading" />
      )}
    </Stack>
  );
}

/** Spec 8 "Unknown customer: not-found view": the same for a customer that does not exist and one the user has no role in. */
function AccountNotFound() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const profile = useProfile().data;
  usePageTitle(t('account.notFound.title'));
  // Back to where this user's customers are listed: the picker, or the staff home.
  const back = profile?.can.viewHome ? '/' : '/select-account';
  return (
    <Stack align="center" py="xl" gap="md" data-testid="account-not-found">
      <Title order={1}>{t('account.notFound.title')}</Title>
      <Text ta="center">{t('account.notFound.text')}</Text>
      <Anchor component={Link} to={localize(back)}>
        {back === '/' ? t('errors.backHome') : t('account.notFound.toAccounts')}
      </Anchor>
    </Stack>
  );
}
