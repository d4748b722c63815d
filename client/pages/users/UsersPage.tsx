import { ActionIcon, Badge, Button, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import type { User } from '../../../common/api/users';
import { DEFAULT_PAGE_LENGTH } from '../../../common/pagination';
import { userListQuery } from '../../api/users';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { DelayedLoader } from '../../components/DelayedLoader';
import { PencilIcon, PlusIcon } from '../../components/icons';
import { Pagination } from '../../components/Pagination';
import { TwoFactorSummary } from './TwoFactorSummary';
import { usePageTitle } from '../../app/title';
import { LoadError } from '../../components/LoadError';
import { isStale, SearchBox, useSearchedPages } from '../../components/use-searched-pages';
import { lazyFormDialog } from '../../components/FormModal';

// its form and schema come when it is first opened (decision 092)
const UserModal = lazyFormDialog(() => import('./UserModal').then((module) => module.UserModal));

interface ModalState {
  opened: boolean;
  user: User | null;
  formKey: number;
}

export function UsersPage() {
  const { t } = useTranslation();
  usePageTitle(t('users.title'));
  const { search, setSearch, filter, offset, setOffset } = useSearchedPages();
  const [modal, setModal] = useState<ModalState>({ opened: false, user: null, formKey: 0 });
  const openModal = (user: User | null) => setModal((m) => ({ opened: true, user, formKey: m.formKey + 1 }));

  const users = useQuery({
    ...userListQuery({ offset, filter }, DEFAULT_PAGE_LENGTH),
    placeholderData: keepPreviousData,
  });
  const results = users.data?.results ?? [];
  const stale = isStale(users);

  return (
    <Stack gap="md" py="md">
      <PageHeader
        title={t('users.title')}
        actions={
          <Button leftSection={<PlusIcon size={16} />} onClick={() => openModal(null)} data-testid="users-add">
            {t('users.add')}
          </Button>
        }
      />
      <SearchBox
        label={t('users.search')}
        placeholder={t('users.searchPlaceholder')}
        autoFocus
        value={search}
        onChange={setSearch}
        testId="users-search"
      />
      {(users.isPending || stale) && <DelayedLoader />}
      <LoadError query={users} messageKey="users.loadError" testId="users-error" />
      {users.data && results.length === 0 && (
        <Stack gap={4} role="status" data-testid="users-empty">
          <Text fw={500}>{filter ? t('users.empty', { filter }) : t('users.emptyAll')}</Text>
          {filter && (
            <Text size="sm" c="dimmed">
              {t('users.emptyHint')}
            </Text>
          )}
        </Stack>
      )}
      {users.data && results.length > 0 && (
        <>
          <Text size="sm" c="dimmed" data-testid="users-count">
            {t(users.data.totalHitsCapped ? 'users.countMore' : 'users.count', { count: users.data.totalHits })}
          </Text>
          <DataTable
            label={t('users.title')}
            striped
            highlightOnHover
            data-testid="users-table"
            aria-busy={users.isFetching}
            style={stale ? { opacity: 0.5 } : undefined}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('users.columns.id')}</Table.Th>
                <Table.Th>{t('users.columns.name')}</Table.Th>
                <Table.Th>{t('users.columns.email')}</Table.Th>
                <Table.Th>{t('users.columns.type')}</Table.Th>
                <Table.Th>{t('users.columns.status')}</Table.Th>
                <Table.Th>{t('users.columns.twoFactor')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('users.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.map((user) => (
                <Table.Tr key={user.id} data-testid="user-row">
                  <Table.Td>{user.id}</Table.Td>
                  <Table.Td>{user.fullname}</Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>{t(`roles.${user.type}`)}</Table.Td>
                  <Table.Td>
                    <Badge color={user.status === 'enabled' ? 'teal' : 'gray'} variant="light">
                      {t(`userStatus.${user.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <TwoFactorSummary factors={user.twoFactor} testId="user-two-factor" />
                  </Table.Td>
                  <Table.Td>
                    {user.can.edit && (
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('users.edit', { name: user.fullname || user.email })}
                        title={t('users.edit', { name: user.fullname || user.email })}
                        onClick={() => openModal(user)}
                        data-testid="user-edit"
                      >
                        <PencilIcon size={16} />
                      </ActionIcon>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
          <Pagination
            offset={users.data.pageOffset}
            pageLength={users.data.pageLength}
            total={users.data.totalHits}
            totalCapped={users.data.totalHitsCapped}
            onChange={setOffset}
          />
        </>
      )}
      <UserModal
        opened={modal.opened}
        user={modal.user}
        formKey={modal.formKey}
        onClose={() => setModal((m) => ({ ...m, opened: false }))}
      />
    </Stack>
  );
}
