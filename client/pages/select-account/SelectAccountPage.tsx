import { Avatar, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import { Link, Navigate } from 'react-router';
import type { CustomerList } from '../../../common/api/customers';
import { initials } from '../../../common/format';
import { CUSTOMERS_PAGE_LENGTH } from '../../../common/pagination';
import { customerListQuery } from '../../api/customers';
import { useLocalize } from '../../app/locale';
import { useProfile } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { EndingLicencesPanel, seesEndingLicences } from '../../components/EndingLicencesPanel';
import { PageHeader } from '../../components/PageHeader';
import { Pagination } from '../../components/Pagination';
import { LoadError } from '../../components/LoadError';
import { isStale, SearchBox, useSearchedPages } from '../../components/use-searched-pages';

/**
 * Spec 2 "Select account": the user's accounts a page at a time, from the customer list API (the
 * profile carries only the first 50). Whoever has exactly one goes straight to it. An account
 * executive also sees the licences of their customers ending soon.
 */
export function SelectAccountPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const profile = useProfile().data;
  usePageTitle(t('selectAccount.title'));
  const { search, setSearch, filter, offset, setOffset } = useSearchedPages({ pageLength: CUSTOMERS_PAGE_LENGTH });

  const accounts = useQuery({
    ...customerListQuery({ pageOffset: offset, pageLength: CUSTOMERS_PAGE_LENGTH, filter }),
    placeholderData: keepPreviousData,
  });
  const list = accounts.data;
  const stale = isStale(accounts);

  const only = onlyAccount(list, filter, offset);
  if (only !== null) return <Navigate replace to={localize(`/accounts/${only}`)} />;

  // Spec 2: the filter shows once one is set, or when the first account is one the user manages as
  // account executive (they have many); a contact with a handful of projects does not need it.
  const showFilter = search !== '' || filter !== '' || list?.data[0]?.yourRole === 'accountExecutive';

  return (
    <Stack gap="md" py="md">
      <PageHeader title={t('selectAccount.title')} />
      {showFilter && (
        <SearchBox label={t('selectAccount.filter')} value={search} onChange={setSearch} testId="account-filter" />
      )}
      {(accounts.isPending || stale) && <DelayedLoader />}
      <LoadError query={accounts} messageKey="selectAccount.loadError" testId="accounts-error" />
      {list && list.data.length === 0 && (
        <Text role="status" data-testid="accounts-empty">
          {filter ? t('selectAccount.noMatch', { filter }) : t('selectAccount.empty')}
        </Text>
      )}
      {list && list.data.length > 0 && (
        <Stack
          gap="xs"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none', opacity: stale ? 0.5 : undefined }}
          aria-busy={accounts.isFetching}
        >
          {list.data.map((account) => (
            <li key={account.id}>
              <Card withBorder padding="sm" radius="md">
                <UnstyledButton component={Link} to={localize(`/accounts/${account.id}`)} data-testid="account-entry">
                  <Group gap="md" wrap="nowrap">
                    <Avatar color="indigo" radius="xl" aria-hidden>
                      {initials(account.name)}
                    </Avatar>
                    <div style={{ minWidth: 0 }}>
                      <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {account.name}
                      </Text>
                      <Text size="sm" c="dimmed">
                        {t(`roles.${account.yourRole}`)}
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              </Card>
            </li>
          ))}
        </Stack>
      )}
      {list && (
        <Pagination
          offset={list.offset}
          pageLength={CUSTOMERS_PAGE_LENGTH}
          total={list.total}
          totalCapped={list.totalCapped}
          onChange={setOffset}
        />
      )}
      {seesEndingLicences(profile) && <EndingLicencesPanel />}
    </Stack>
  );
}

/** The id of the user's one and only account, read from the unfiltered first page; else null. */
function onlyAccount(list: CustomerList | undefined, filter: string, offset: number): number | null {
  if (!list || filter !== '' || offset !== 0 || list.totalCapped || list.total !== 1) return null;
  return list.data[0]?.id ?? null;
}
