import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../i18n/use-translation';
import { INVITATION_SORTS, type Invitation } from '../../../../common/api/invitations';
import {
  cancelInvitation,
  getInvitationLink,
  invitationsQuery,
  memberKeys,
  resendInvitation,
  TEAM_PAGE_LENGTH,
} from '../../../api/members';
import { FIRST_SCREEN_FRESH_MS } from '../../../api/customer-page';
import { CLIPBOARD_NOT_AVAILABLE, copyToClipboard } from '../../../components/copy-to-clipboard';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable } from '../../../components/DataTable';
import { DelayedLoader } from '../../../components/DelayedLoader';
import { apiErrorText } from '../../../components/forms';
import { LoadError } from '../../../components/LoadError';
import { notify } from '../../../components/notify';
import { Pagination } from '../../../components/Pagination';
import { isStale, useSearchedPages } from '../../../components/use-searched-pages';
import { TEAM_STATUS_COLORS, TeamListControls } from './TeamListControls';

/**
 * The customer's pending and expired invitations (spec section 2, "Members"), a list apart from the
 * members: ten at a time, newest first unless another order is chosen, searched by name or e-mail,
 * all three kept in the address (`invitations-q`, `invitations-page`, `invitations-sort`). Resend,
 * copy the link (admins) and cancel (spec section 4).
 */
export function InvitationsList({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useSearchedPages({ prefix: 'invitations-', pageLength: TEAM_PAGE_LENGTH, sorts: INVITATION_SORTS });
  const invitations = useQuery({
    ...invitationsQuery(customerId, { offset: list.offset, filter: list.filter, sort: list.sort }),
    placeholderData: keepPreviousData,
    staleTime: FIRST_SCREEN_FRESH_MS,
  });
  const [cancelling, setCancelling] = useState<Invitation | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: memberKeys.team(customerId) });

  const failed = (error: unknown) =>
    notify({ status: 'error', message: t('members.error', { error: apiErrorText(error, t) }) });
  const resend = useMutation({
    mutationFn: (invitation: Invitation) => resendInvitation(invitation.id),
    onSuccess: async (invitation) => {
      notify({ status: 'success', message: t('members.resent', { email: invitation.invitedEmail }) });
      await reload();
    },
    onError: failed,
  });
  const cancel = useMutation({
    mutationFn: (invitation: Invitation) => cancelInvitation(invitation.id),
    onSuccess: async (_ok, invitation) => {
      setCancelling(null);
      notify({ status: 'success', message: t('members.cancelled', { email: invitation.invitedEmail }) });
      await reload();
    },
    onError: (error) => {
      setCancelling(null);
      failed(error);
    },
  });
  // The list's answer carries the link to an admin; without it (a key sealed under a former secret)
  // the link route answers why, which the toast shows.
  const copy = useMutation({
    mutationFn: async (invitation: Invitation) =>
      copyToClipboard(invitation.invitationLink ?? (await getInvitationLink(invitation.id)).invitationLink),
    onSuccess: () => notify({ status: 'success', message: t('members.copied') }),
    onError: (error) =>
      error instanceof Error && error.message === CLIPBOARD_NOT_AVAILABLE
        ? notify({ status: 'error', message: t('members.clipboardNotAvailable') })
        : failed(error),
  });

  const rows = invitations.data?.data ?? [];
  const searchable = list.filter !== '' || (invitations.data?.total ?? 0) > 1;
  return (
    <Stack gap="sm" data-testid="invitations-list">
      <Title order={3} size="h4">
        {t('members.invitationsTitle')}
      </Title>
      {searchable && (
        <TeamListControls
          list="invitations"
          search={list.search}
          onSearch={list.setSearch}
          sort={list.sort}
          sorts={INVITATION_SORTS}
          onSort={list.setSort}
        />
      )}
      {(invitations.isPending || isStale(invitations)) && <DelayedLoader testId="invitations-loader" />}
      <LoadError query={invitations} messageKey="members.error" testId="invitations-load-error" />
      {invitations.data && rows.length === 0 && (
        <Text role="status" c="dimmed" data-testid="invitations-empty">
          {list.filter ? t('members.noInvitationMatch', { filter: list.filter }) : t('members.noInvitations')}
        </Text>
      )}
      {rows.length > 0 && (
        <DataTable
          label={t('members.invitationsTable')}
          minWidth={720}
          striped
          aria-busy={isStale(invitations)}
          data-testid="invitations-table"
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
            {rows.map((invitation) => (
              <Table.Tr key={invitation.id} data-testid="invitation-row" data-email={invitation.invitedEmail}>
                <Table.Td>{invitation.invitedFullName}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{invitation.invitedEmail}</Table.Td>
                <Table.Td>{t(`roles.${invitation.role}`)}</Table.Td>
                <Table.Td>
                  <Badge color={TEAM_STATUS_COLORS[invitation.status]} variant="light" data-testid="invitation-status">
                    {t(`members.status.${invitation.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      onClick={() => resend.mutate(invitation)}
                      loading={resend.isPending && resend.variables?.id === invitation.id}
                      aria-label={t('members.resendFor', { email: invitation.invitedEmail })}
                      data-testid="invitation-resend"
                    >
                      {t('members.resend')}
                    </Button>
                    {invitation.can.copyLink && invitation.status !== 'expired' && (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        onClick={() => copy.mutate(invitation)}
                        aria-label={t('members.copyFor', { email: invitation.invitedEmail })}
                        data-testid="invitation-copy"
                      >
                        {t('members.copy')}
                      </Button>
                    )}
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      onClick={() => setCancelling(invitation)}
                      aria-label={t('members.cancelFor', { email: invitation.invitedEmail })}
                      data-testid="invitation-cancel"
                    >
                      {t('members.cancel')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </DataTable>
      )}
      {invitations.data && (
        <Pagination
          offset={invitations.data.offset}
          pageLength={TEAM_PAGE_LENGTH}
          total={invitations.data.total}
          totalCapped={invitations.data.totalCapped}
          onChange={list.setOffset}
        />
      )}
      <ConfirmModal
        opened={cancelling !== null}
        title={t('members.cancelTitle')}
        message={t('members.cancelConfirm', { email: cancelling?.invitedEmail ?? '' })}
        cancelLabel={t('members.keep')}
        confirmLabel={t('members.cancelYes')}
        confirmColor="red"
        pending={cancel.isPending}
        testId="invitation-cancel-confirm"
        confirmTestId="invitation-cancel-yes"
        onCancel={() => setCancelling(null)}
        onConfirm={() => cancelling && cancel.mutate(cancelling)}
      />
    </Stack>
  );
}
