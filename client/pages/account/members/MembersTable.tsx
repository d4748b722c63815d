import { ActionIcon, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { type Member, MEMBER_SORTS } from '../../../../common/api/members';
import { membersQuery, TEAM_PAGE_LENGTH } from '../../../api/members';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import { useCustomerAccess } from '../../../app/customer-access';
import { DataTable } from '../../../components/DataTable';
import { DelayedLoader } from '../../../components/DelayedLoader';
import { PencilIcon, PlusIcon } from '../../../components/icons';
import { LoadError } from '../../../components/LoadError';
import { Pagination } from '../../../components/Pagination';
import { isStale, useSearchedPages } from '../../../components/use-searched-pages';
import { InvitationsList } from './InvitationsList';
import { TEAM_STATUS_COLORS, TeamListControls } from './TeamListControls';
import { lazyFormDialog } from '../../../components/FormModal';

// its form and schema come when it is first opened (decision 092)
const MembersModal = lazyFormDialog(() => import('./MembersModal').then((module) => module.MembersModal));

interface ModalState {
  opened: boolean;
  member: Member | null;
  formKey: number;
}

/**
 * The members of a customer and, apart from them, its pending or expired invitations (spec section
 * 2, "Members"), with the members modal (invite, edit a status). Each list comes ten at a time with
 * its search and order in the address (`members-q`, `members-page`, `members-sort`). A member's
 * status can be edited by others only, and only for a role the editor could invite (the server's
 * rule, decision 027).
 */
export function MembersTable({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const { role, can, inviteRoles } = useCustomerAccess(customerId, { staleTime: FIRST_SCREEN_FRESH_MS });
  const list = useSearchedPages({ prefix: 'members-', pageLength: TEAM_PAGE_LENGTH, sorts: MEMBER_SORTS });
  const members = useQuery({
    ...membersQuery(customerId, { offset: list.offset, filter: list.filter, sort: list.sort }),
    placeholderData: keepPreviousData,
    staleTime: FIRST_SCREEN_FRESH_MS,
    enabled: role !== null,
  });
  const [modal, setModal] = useState<ModalState>({ opened: false, member: null, formKey: 0 });
  const openModal = (member: Member | null) => setModal((m) => ({ opened: true, member, formKey: m.formKey + 1 }));

  if (!role) return null;
  const mayInvite = inviteRoles.length > 0;
  const rows = members.data?.data ?? [];
  const stale = isStale(members);

  return (
    <Stack gap="lg" mt="sm">
      {mayInvite && (
        <Group justify="flex-end">
          <Button leftSection={<PlusIcon size={16} />} onClick={() => openModal(null)} data-testid="members-add">
            {t('members.add')}
          </Button>
        </Group>
      )}
      <Stack gap="sm" data-testid="members-list">
        <Title order={3} size="h4">
          {t('members.membersTitle')}
        </Title>
        {(list.filter !== '' || (members.data?.total ?? 0) > 1) && (
          <TeamListControls
            list="members"
            search={list.search}
            onSearch={list.setSearch}
            sort={list.sort}
            sorts={MEMBER_SORTS}
            onSort={list.setSort}
          />
        )}
        {(members.isPending || stale) && <DelayedLoader testId="members-loader" />}
        <LoadError query={members} messageKey="members.error" testId="members-load-error" />
        {members.data && rows.length === 0 && (
          <Stack gap={4} role="status" data-testid="members-empty">
            <Text fw={500}>{list.filter ? t('members.noMatch', { filter: list.filter }) : t('members.empty')}</Text>
            {!list.filter && (
              <Text size="sm" c="dimmed">
                {mayInvite ? t('members.emptyInvite', { add: t('members.add') }) : t('members.emptyAsk')}
              </Text>
            )}
          </Stack>
        )}
        {rows.length > 0 && (
          <DataTable
            label={t('members.table')}
            minWidth={640}
            striped
            aria-busy={stale}
            style={stale ? { opacity: 0.5 } : undefined}
            data-testid="members-table"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('members.columns.fullname')}</Table.Th>
                <Table.Th>{t('members.columns.email')}</Table.Th>
                <Table.Th>{t('members.columns.role')}</Table.Th>
                <Table.Th>{t('members.columns.status')}</Table.Th>
                <Table.Th>{t('members.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((member) => (
                <Table.Tr key={member.id} data-testid="member-row" data-email={member.email}>
                  <Table.Td>{member.fullname}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{member.email}</Table.Td>
                  <Table.Td>{t(`roles.${member.role}`)}</Table.Td>
                  <Table.Td>
                    <Badge color={TEAM_STATUS_COLORS[member.status]} variant="light">
                      {t(`members.status.${member.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {member.can.changeStatus && (
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('members.edit', { name: member.fullname })}
                        title={t('members.edit', { name: member.fullname })}
                        onClick={() => openModal(member)}
                        data-testid="member-edit"
                      >
                        <PencilIcon size={16} />
                      </ActionIcon>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </DataTable>
        )}
        {members.data && (
          <Pagination
            offset={members.data.offset}
            pageLength={TEAM_PAGE_LENGTH}
            total={members.data.total}
            totalCapped={members.data.totalCapped}
            onChange={list.setOffset}
          />
        )}
      </Stack>
      <InvitationsList customerId={customerId} />
      <MembersModal
        opened={modal.opened}
        customerId={customerId}
        inviteRoles={inviteRoles}
        chooseLocale={can('chooseInvitationLocale')}
        member={modal.member}
        formKey={modal.formKey}
        onClose={() => setModal((m) => ({ ...m, opened: false }))}
      />
    </Stack>
  );
}
