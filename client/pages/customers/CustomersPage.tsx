import { Button, Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { CUSTOMERS_PAGE_LENGTH } from '../../../common/pagination';
import { customerListQuery } from '../../api/customers';
import { useLocalize } from '../../app/locale';
import type { PrefetchPageData } from '../../app/prefetch-page-data';
import { ROUTE_RULES, routeAccess } from '../../app/routing';
import { useProfile } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { PlusIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { LoadError } from '../../components/LoadError';
import {
  isStale,
  listParamNames,
  pageOffsetInAddress,
  SearchBox,
  useSearchedPages,
} from '../../components/use-searched-pages';
import { lazyFormDialog } from '../../components/FormModal';

// its form and schema come when it is first opened (decision 092)
const CustomerModal = lazyFormDialog(() => import('./CustomerModal').then((module) => module.CustomerModal));

/** What the page's first render asks for (app/prefetch-page-data.ts): the page of the list in the address. */
export const prefetchData: PrefetchPageData = (queryClient, { search, profile }) => {
  if (routeAccess(ROUTE_RULES.customers, profile).kind !== 'allow') return;
  const names = listParamNames();
  const filter = (search.get(names.q) ?? '').trim();
  const pageOffset = pageOffsetInAddress(search, names.page, CUSTOMERS_PAGE_LENGTH);
  void queryClient.prefetchQuery(customerListQuery({ pageOffset, pageLength: CUSTOMERS_PAGE_LENGTH, filter }));
};

/**
 * The customer list (spec 2 "Customer list"): a search debounced 300 ms, pages of 10 cards linking to
 * the account, the Add button for admins. Each filter and page has its own query key, and only the
 * current key's answer is shown: an older search answering late lands in its own cache entry and
 * never replaces the newer one on screen (spec 4, "Customer list requests are sequenced").
 */
export function CustomersPage() {
  const { t } = useTranslation();
  usePageTitle(t('customers.title'));
  const localize = useLocalize();
  const canAdd = useProfile().data?.can.addCustomer === true;
  const { search, setSearch, filter, offset, setOffset } = useSearchedPages({ pageLength: CUSTOMERS_PAGE_LENGTH });
  const [modal, setModal] = useState({ opened: false, formKey: 0 });

  const customers = useQuery({
    ...customerListQuery({ pageOffset: offset, pageLength: CUSTOMERS_PAGE_LENGTH, filter }),
    placeholderData: keepPreviousData,
  });
  const rows = customers.data?.data ?? [];
  const stale = isStale(customers);

  return (
    <Stack gap="md" py="md">
      <PageHeader
        title={t('customers.title')}
        actions={
          canAdd ? (
            <Button
              leftSection={<PlusIcon size={16} />}
              onClick={() => setModal((m) => ({ opened: true, formKey: m.formKey + 1 }))}
              data-testid="customers-add"
            >
              {t('customers.add')}
            </Button>
          ) : undefined
        }
      />
      <SearchBox
        label={t('customers.search')}
        placeholder={t('customers.searchPlaceholder')}
        autoFocus
        value={search}
        onChange={setSearch}
        testId="customers-search"
      />
      {(customers.isPending || stale) && <DelayedLoader />}
      <LoadError query={customers} messageKey="customers.loadError" testId="customers-error" />
      {customers.data && rows.length === 0 && (
        <Stack gap={4} role="status" data-testid="customers-empty">
          <Text fw={500}>{filter ? t('customers.empty', { filter }) : t('customers.emptyAll')}</Text>
          <Text size="sm" c="dimmed">
            {t('customers.emptyHint')}
          </Text>
        </Stack>
      )}
      {customers.data && rows.length > 0 && (
        <>
          <Text size="sm" c="dimmed" data-testid="customers-count">
            {t(customers.data.totalCapped ? 'customers.countMore' : 'customers.count', { count: customers.data.total })}
          </Text>
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 3 }}
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: 'none', opacity: stale ? 0.5 : undefined }}
            aria-busy={customers.isFetching}
            aria-label={t('customers.title')}
            data-testid="customers-list"
          >
            {rows.map((customer) => (
              <li key={customer.id}>
                <Card
                  component={Link}
                  to={localize(`/accounts/${customer.id}`)}
                  withBorder
                  padding="md"
                  radius="md"
                  h="100%"
                  data-testid="customer-card"
                >
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {customer.name}
                  </Text>
                  <Text size="sm" c="dimmed" ff="monospace">
                    {customer.customerKey}
                  </Text>
                </Card>
              </li>
            ))}
          </SimpleGrid>
          <Pagination
            offset={customers.data.offset}
            pageLength={CUSTOMERS_PAGE_LENGTH}
            total={customers.data.total}
            totalCapped={customers.data.totalCapped}
            onChange={setOffset}
          />
        </>
      )}
      {canAdd && (
        <CustomerModal
          opened={modal.opened}
          customer={null}
          formKey={modal.formKey}
          onClose={() => setModal((m) => ({ ...m, opened: false }))}
        />
      )}
    </Stack>
  );
}
