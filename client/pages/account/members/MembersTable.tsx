import { ActionIcon, Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Invitation } from '../../../../common/api/invitations';
import type { Member } from '../../../../common/api/members';
import { invitableRoles } from '../../../../common/permissions';
import {
  cancelInvitation,
  getInvitationLink,
  invitationsQuery,
  memberKeys,
  membersQuery,
  resendInvitation,
} from '../../../api/members';
import { useCustomerAccess } from '../../../app/customerAccess';
import { useProfile } from '../../../app/session';
import { CLIPBOARD_NOT_AVAILABLE, copyToClipboard } from '../../../components/copyToClipboard';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable } from '../../../components/DataTable';
import { DelayedLoader } from '../../../components/DelayedLoader';
import { apiErrorText } from '../../../components/forms';
import { PencilIcon, PlusIcon } from '../../../components/icons';
import { notify } from '../../../components/notify';
import { MembersModal } from './MembersModal';

const STATUS_COLORS = { enabled: 'teal', disabled: 'gray', pending: 'blue', expired: 'orange' } as const;

interface ModalState {
  opened: boolean;
  member: Member | null;
  formKey: number;
}

/**
 * The members of a customer and its pending or expired invitations, as rows of one table (spec
 * section 2, "Members"), with the members modal and the invitation actions (spec section 4). A
 * member's status can be edited by others only, and only for a role the editor could invite (the
 * server's rule, decision 027).
 */
export function MembersTable({ customerId }: { customerId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { role, can } = useCustomerAccess(customerId);
  const me = useProfile().data;
  const members = useQuery(membersQuery(customerId));
  const invitations = useQuery(invitationsQuery(customerId));
  const [modal, setModal] = useState<ModalState>({ opened: false, member: null, formKey: 0 });
  const [cancelling, setCancelling] = useState<Invitation | null>(null);
  const openModal = (member: Member | null) => setModal((m) => ({ opened: true, member, formKey: m.formKey + 1 }));
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
  const copy = useMutation({
    mutationFn: async (invitation: Invitation) => {
      const { invitationLink } = await getInvitationLink(invitation.id);
      await copyToClipboard(invitationLink);
    },
    onSuccess: () => notify({ status: 'success', message: t('members.copied') }),
    onError: (error) =>
      error instanceof Error && error.message === CLIPBOARD_NOT_AVAILABLE
        ? notify({ status: 'error', message: t('members.clipboardNotAvailable') })
        : failed(error),
  });

  if (!role) return null;
  const loading = members.isPending || invitations.isPending;
  const error = members.error ?? invitations.error;
  const memberRows = members.data?.data ?? [];
  const invitationRows = invitations.data?.data ?? [];

  return (
    <Stack gap="sm" mt="sm">
      <Group justify="flex-end">
        <Button leftSection={<PlusIcon size={16} />} onClick={() => openModal(null)} data-testid="members-add">
          {t('members.add')}
        </Button>
      </Group>
      {loading && <DelayedLoader testId="members-loader" />}
      {error && (
        <Alert color="red" role="alert" data-testid="members-load-error">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('members.error', { error: apiErrorText(error, t) })}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => void reload()}>
              {t('app.retry')}
            </Button>
          </Stack>
        </Alert>
      )}
      {!loading && !error && (
        <DataTable label={t('members.table')} minWidth={720} striped data-testid="members-table">
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
            {memberRows.map((member) => (
              <Table.Tr key={`m${member.id}`} data-testid="member-row" data-email={member.email}>
                <Table.Td>{member.fullname}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{member.email}</Table.Td>
                <Table.Td>{t(`roles.${member.role}`)}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[member.status]} variant="light">
                    {t(`members.status.${member.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {member.userId !== me?.id && invitableRoles(role).includes(member.role) && (
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
            {invitationRows.map((invitation) => (
              <Table.Tr key={`i${invitation.id}`} data-testid="invitation-row" data-email={invitation.invitedEmail}>
                <Table.Td>{invitation.invitedFullName}</Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{invitation.invitedEmail}</Table.Td>
                <Table.Td>{t(`roles.${invitation.role}`)}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[invitation.status]} variant="light" data-testid="invitation-status">
                    {t(`members.status.${invitation.status}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
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
                    {can('copyInvitationLink') && invitation.status !== 'expired' && (
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
      <MembersModal
        opened={modal.opened}
        customerId={customerId}
        role={role}
        member={modal.member}
        formKey={modal.formKey}
        onClose={() => setModal((m) => ({ ...m, opened: false }))}
      />
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
