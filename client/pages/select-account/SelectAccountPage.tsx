import { Avatar, Card, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { initials } from '../../../common/format';
import { DEFAULT_PAGE_LENGTH } from '../../../common/pagination';
import { useLocalize } from '../../app/locale';
import { useProfile } from '../../app/session';
import { Pagination } from '../../components/Pagination';
import { usePageTitle } from '../../app/title';
import { PageHeader } from '../../components/PageHeader';

/** Spec 2 "Select account", from the accounts the profile carries. */
export function SelectAccountPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('selectAccount.title'));
  const profile = useProfile().data;
  const [filter, setFilter] = useState('');
  const [offset, setOffset] = useState(0);
  if (!profile) return null;
  const { accounts, accountsTotal } = profile;
  if (accountsTotal === 1 && accounts[0]) return <Navigate replace to={localize(`/accounts/${accounts[0].id}`)} />;

  const needle = filter.trim().toLocaleLowerCase();
  const matching = needle ? accounts.filter((a) => a.name.toLocaleLowerCase().includes(needle)) : accounts;
  const page = matching.slice(offset, offset + DEFAULT_PAGE_LENGTH);
  // Spec 2: the filter only shows for account executives (who have many customers) or once one is set.
  const showFilter = filter !== '' || accounts[0]?.role === 'accountExecutive';

  return (
    <Stack gap="md" py="md">
      <PageHeader title={t('selectAccount.title')} />
      {showFilter && (
        <TextInput
          label={t('selectAccount.filter')}
          value={filter}
          onChange={(e) => {
            setFilter(e.currentTarget.value);
            setOffset(0);
          }}
          maw={360}
        />
      )}
      {accounts.length === 0 && <Text c="dimmed">{t('selectAccount.empty')}</Text>}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {page.map((account) => (
          <li key={account.id}>
            <Card withBorder padding="sm" radius="md">
              <UnstyledButton
                component={Link}
                to={localize(`/accounts/${account.id}`)}
                aria-label={t('selectAccount.open', { name: account.name })}
                data-testid="account-entry"
              >
                <Group gap="md" wrap="nowrap">
                  <Avatar color="indigo" radius="xl">
                    {initials(account.name)}
                  </Avatar>
                  <div>
                    <Text fw={600}>{account.name}</Text>
                    <Text size="sm" c="dimmed">
                      {t(`roles.${account.role}`)}
                    </Text>
                  </div>
                </Group>
              </UnstyledButton>
            </Card>
          </li>
        ))}
      </Stack>
      <Pagination offset={offset} pageLength={DEFAULT_PAGE_LENGTH} total={matching.length} onChange={setOffset} />
      {accountsTotal > accounts.length && (
        <Text size="sm" c="dimmed">
          {t('selectAccount.moreAccounts', { shown: accounts.length, total: accountsTotal })}
        </Text>
      )}
    </Stack>
  );
}
