import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../i18n/use-translation';
import { CreateInvitationBody, DEFAULT_INVITATION_ROLE } from '../../../../common/api/invitations';
import { type Member, UpdateMemberStatusBody } from '../../../../common/api/members';
import { MEMBERSHIP_STATUSES, type MembershipStatus } from '../../../../common/domain';
import { DEFAULT_LOCALE, LOCALES, type Locale, type MemberRole } from '../../../../common/roles';
import { createInvitation, memberKeys, updateMemberStatus } from '../../../api/members';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../../components/FormModal';
import { apiErrorText } from '../../../components/forms';
import { notify } from '../../../components/notify';
import { useSchemaForm } from '../../../components/use-schema-form';
import { useIdempotencyKey } from '../../../components/use-idempotency-key';

/** Spec 8's "Oh snap... {error}" when the save failed, then Cancel and the submit button. */
function FormFooter({ error, saving, submit }: { error: unknown; saving: boolean; submit: string }) {
  const { t } = useTranslation();
  return (
    <>
      {error ? (
        <Alert color="red" role="alert" data-testid="members-modal-feedback">
          {t('members.error', { error: apiErrorText(error, t) })}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <ModalCancelButton>{t('members.form.cancel')}</ModalCancelButton>
        <Button type="submit" loading={saving}>
          {submit}
        </Button>
      </Group>
    </>
  );
}

interface InviteValues extends Record<string, unknown> {
  invitedEmail: string;
  invitedFullName: string;
  targetRole: MemberRole;
  locale: Locale;
}

/** The invite form's request: the locale only from those who may choose it (spec section 6). */
function invitationBody(values: InviteValues, customerId: number, chooseLocale: boolean) {
  return {
    invitedEmail: values.invitedEmail,
    invitedFullName: values.invitedFullName,
    targetCustomer: customerId,
    targetRole: values.targetRole,
    ...(chooseLocale ? { locale: values.locale } : {}),
  };
}

function InviteForm({
  customerId,
  roles,
  chooseLocale,
}: {
  customerId: number;
  roles: readonly MemberRole[];
  chooseLocale: boolean;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { close } = useFormModal();
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<InviteValues>({
    initialValues: {
      invitedEmail: '',
      invitedFullName: '',
      targetRole: roles.includes(DEFAULT_INVITATION_ROLE)
        ? DEFAULT_INVITATION_ROLE
        : (roles[0] ?? DEFAULT_INVITATION_ROLE),
      locale: DEFAULT_LOCALE,
    },
    schema: CreateInvitationBody,
    select: (values) => invitationBody(values, customerId, chooseLocale),
  });
  const idempotencyKey = useIdempotencyKey();
  const save = useModalMutation(
    (values: InviteValues) =>
      createInvitation(
        CreateInvitationBody.parse(invitationBody(values, customerId, chooseLocale)),
        idempotencyKey(values),
      ),
    {
      onSuccess: async (invitation) => {
        notify({ status: 'success', message: t('members.invited', { email: invitation.invitedEmail }) });
        close();
        await queryClient.invalidateQueries({ queryKey: memberKeys.team(customerId) });
      },
      onError: showFieldErrors,
    },
  );
  return (
    <form ref={ref} onSubmit={onSubmit((values) => save.mutate(values))} noValidate data-testid="invite-form">
      <Stack gap="sm">
        <TextInput
          label={t('members.form.email')}
          name="invitedEmail"
          type="email"
          autoComplete="off"
          data-autofocus
          required
          withAsterisk={false}
          {...form.getInputProps('invitedEmail')}
        />
        <TextInput
          label={t('members.form.fullname')}
          name="invitedFullName"
          autoComplete="off"
          required
          withAsterisk={false}
          {...form.getInputProps('invitedFullName')}
        />
        <NativeSelect
          label={t('members.form.role')}
          name="targetRole"
          data={roles.map((value) => ({ value, label: t(`roles.${value}`) }))}
          {...form.getInputProps('targetRole')}
        />
        {chooseLocale && (
          <NativeSelect
            label={t('members.form.locale')}
            name="locale"
            data={LOCALES.map((value) => ({ value, label: t(`language.${value}`) }))}
            {...form.getInputProps('locale')}
          />
        )}
        <FormFooter error={save.error} saving={save.isPending} submit={t('members.form.invite')} />
      </Stack>
    </form>
  );
}

interface StatusValues extends Record<string, unknown> {
  status: MembershipStatus;
}

function StatusForm({ customerId, member }: { customerId: number; member: Member }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { close } = useFormModal();
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<StatusValues>({
    initialValues: { status: member.status },
    schema: UpdateMemberStatusBody,
  });
  const save = useModalMutation((values: StatusValues) => updateMemberStatus(member.id, { status: values.status }), {
    onSuccess: async (saved) => {
      notify({ status: 'success', message: t('members.updated', { name: saved.fullname }) });
      close();
      await queryClient.invalidateQueries({ queryKey: memberKeys.team(customerId) });
    },
    onError: showFieldErrors,
  });
  return (
    <form ref={ref} onSubmit={onSubmit((values) => save.mutate(values))} noValidate data-testid="member-status-form">
      <Stack gap="sm">
        <Text size="sm">
          {member.fullname} ({member.email}) · {t(`roles.${member.role}`)}
        </Text>
        <NativeSelect
          label={t('members.form.status')}
          name="status"
          data-autofocus
          data={MEMBERSHIP_STATUSES.map((value) => ({ value, label: t(`members.status.${value}`) }))}
          {...form.getInputProps('status')}
        />
        <FormFooter error={save.error} saving={save.isPending} submit={t('members.form.save')} />
      </Stack>
    </form>
  );
}

interface MembersModalProps {
  opened: boolean;
  customerId: number;
  /** the roles the signed-in user may give there (the customer's `can.inviteRoles`) */
  inviteRoles: readonly MemberRole[];
  /** the signed-in user chooses the invitation's language (the customer's `can.chooseInvitationLocale`) */
  chooseLocale: boolean;
  /** the member whose status is edited, or null to invite someone */
  member: Member | null;
  /** a new value gives a fresh form */
  formKey: number;
  onClose: () => void;
}

/** Spec "Members modal": edit a member's status, or invite when no member is selected. */
export function MembersModal({
  opened,
  customerId,
  inviteRoles,
  chooseLocale,
  member,
  formKey,
  onClose,
}: MembersModalProps) {
  const { t } = useTranslation();
  return (
    <FormModal opened={opened} onClose={onClose} title={member ? t('members.editTitle') : t('members.inviteTitle')}>
      {member ? (
        <StatusForm key={formKey} customerId={customerId} member={member} />
      ) : (
        <InviteForm key={formKey} customerId={customerId} roles={inviteRoles} chooseLocale={chooseLocale} />
      )}
    </FormModal>
  );
}
