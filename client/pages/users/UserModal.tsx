import { Alert, Button, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import { CreateUserBody, UpdateUserBody, type User } from '../../../common/api/users';
import {
  LOCALES,
  type Locale,
  STAFF_TYPES,
  type StaffType,
  USER_STATUSES,
  type UserStatus,
} from '../../../common/roles';
import { authKeys } from '../../api/auth';
import { createUser, updateUser, userKeys } from '../../api/users';
import { useProfile } from '../../app/session';
import { FormModal, ModalCancelButton, useFormModal, useModalMutation } from '../../components/FormModal';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { useSchemaForm } from '../../components/use-schema-form';
import { useIdempotencyKey } from '../../components/use-idempotency-key';
import { UserTwoFactorSection } from './UserTwoFactorSection';

interface Values extends Record<string, unknown> {
  fullname: string;
  email: string;
  type: StaffType;
  preferredLocale: Locale;
  status: UserStatus;
}

/** The request a form sends: creating sends the type, editing the status when it may change. */
function bodyOf(values: Values, user: User | null, statusEditable: boolean): CreateUserBody | UpdateUserBody {
  const common = { fullname: values.fullname, email: values.email, preferredLocale: values.preferredLocale };
  if (!user) return { ...common, type: values.type };
  return statusEditable ? { ...common, status: values.status } : common;
}

interface FormProps {
  user: User | null;
}

/** Spec 5 "User": create defaults to type admin and locale en; new users are enabled. */
function UserForm({ user }: FormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useProfile().data;
  const { close } = useFormModal();
  // Spec 4: the status changes only for another user than the signed-in one. The server says so in
  // the user's `can` (users/policy.ts), from the account being edited, not from what is typed.
  const statusEditable = user?.can.changeStatus ?? false;
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: {
      fullname: user?.fullname ?? '',
      email: user?.email ?? '',
      type: user && user.type !== 'client' ? user.type : 'admin',
      preferredLocale: user?.preferredLocale ?? 'en',
      status: user?.status ?? 'enabled',
    },
    schema: user ? UpdateUserBody : CreateUserBody,
    select: (values) => bodyOf(values, user, statusEditable),
  });

  const idempotencyKey = useIdempotencyKey();
  const save = useModalMutation(
    // The schema's parse trims and lowercases what is sent, as the server would.
    (values: Values) => {
      const body = bodyOf(values, user, statusEditable);
      return user
        ? updateUser(user.id, UpdateUserBody.parse(body))
        : createUser(CreateUserBody.parse(body), idempotencyKey(body));
    },
    {
      onSuccess: async (saved) => {
        notify({
          status: 'success',
          message: t(user ? 'users.modal.updated' : 'users.modal.created', { email: saved.email }),
        });
        close();
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: userKeys.all }),
          // An admin editing their own row changes what the top bar shows.
          user && user.id === me?.id ? queryClient.invalidateQueries({ queryKey: authKeys.profile }) : null,
        ]);
      },
      // What was typed stays in the form; the problem shows on its field and in the feedback area.
      onError: showFieldErrors,
    },
  );
  const feedback = save.error
    ? t(user ? 'users.modal.updateError' : 'users.modal.createError', { error: apiErrorText(save.error, t) })
    : null;

  return (
    <form ref={ref} onSubmit={onSubmit((values) => save.mutate(values))} noValidate data-testid="user-modal">
      <Stack gap="sm">
        <TextInput
          label={t('users.modal.fullname')}
          name="fullname"
          autoComplete="off"
          data-autofocus
          required
          withAsterisk={false}
          {...form.getInputProps('fullname')}
        />
        <TextInput
          label={t('users.modal.email')}
          name="email"
          type="email"
          autoComplete="off"
          required
          withAsterisk={false}
          {...form.getInputProps('email')}
        />
        {!user && (
          <NativeSelect
            label={t('users.modal.type')}
            name="type"
            data={STAFF_TYPES.map((type) => ({ value: type, label: t(`roles.${type}`) }))}
            {...form.getInputProps('type')}
          />
        )}
        <NativeSelect
          label={t('users.modal.preferredLocale')}
          name="preferredLocale"
          data={LOCALES.map((locale) => ({ value: locale, label: t(`language.${locale}`) }))}
          {...form.getInputProps('preferredLocale')}
        />
        {user && (
          <NativeSelect
            label={t('users.modal.status')}
            name="status"
            disabled={!statusEditable}
            description={statusEditable ? undefined : t('users.modal.statusSelf')}
            data={USER_STATUSES.map((status) => ({ value: status, label: t(`userStatus.${status}`) }))}
            {...form.getInputProps('status')}
          />
        )}
        {user && <UserTwoFactorSection user={user} self={user.id === me?.id} />}
        {feedback && (
          <Alert color="red" role="alert" data-testid="user-modal-feedback">
            {feedback}
          </Alert>
        )}
        <Group justify="flex-end">
          <ModalCancelButton>{t('users.modal.cancel')}</ModalCancelButton>
          <Button type="submit" loading={save.isPending}>
            {t('users.modal.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface UserModalProps {
  opened: boolean;
  /** The user being edited, or null to create one. */
  user: User | null;
  /** A new value gives a fresh form (a new user, or the same one opened again). */
  formKey: number;
  onClose: () => void;
}

export function UserModal({ opened, user, formKey, onClose }: UserModalProps) {
  const { t } = useTranslation();
  return (
    <FormModal
      opened={opened}
      onClose={onClose}
      title={user ? t('users.modal.editTitle') : t('users.modal.createTitle')}
    >
      <UserForm key={formKey} user={user} />
    </FormModal>
  );
}
