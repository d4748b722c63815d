import { Alert, Button, Group, Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UpdateUserBody, User } from '../../../common/api/users';
import {
  LOCALES,
  type Locale,
  STAFF_TYPES,
  type StaffType,
  USER_STATUSES,
  type UserStatus,
} from '../../../common/roles';
import { createUser, updateUser } from '../../api/users';
import { PROFILE_KEY, useProfile } from '../../app/session';
import { apiErrorText, emailError, fieldErrorsOf } from '../../components/forms';
import { notify } from '../../components/notify';
import { useFocusFirstInvalid } from '../../components/useFocusFirstInvalid';
import { USERS_KEY } from './usersKey';

interface Values {
  fullname: string;
  email: string;
  type: StaffType;
  preferredLocale: Locale;
  status: UserStatus;
}

type Errors = Partial<Record<keyof Values, string | null>>;

/**
 * Spec 4: the status field is enabled only if the edited user's e-mail differs from the signed-in
 * user's. The e-mail compared is the one the user has, not the one being typed, so that changing the
 * field cannot unlock one's own status. Unknown signed-in user: locked, the safe side.
 */
export function canEditStatus(editedEmail: string, signedInEmail: string | null | undefined): boolean {
  if (!signedInEmail) return false;
  return editedEmail.trim().toLowerCase() !== signedInEmail.trim().toLowerCase();
}

interface FormProps {
  user: User | null;
  onClose: () => void;
}

/** Spec 5 "User": create defaults to type admin and locale en; new users are enabled. */
function UserForm({ user, onClose }: FormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useProfile().data;
  const { ref: form, focusFirstInvalid } = useFocusFirstInvalid();
  const [values, setValues] = useState<Values>(() => ({
    fullname: user?.fullname ?? '',
    email: user?.email ?? '',
    type: user && user.type !== 'client' ? user.type : 'admin',
    preferredLocale: user?.preferredLocale ?? 'en',
    status: user?.status ?? 'enabled',
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [feedback, setFeedback] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const statusEditable = user !== null && canEditStatus(user.email, me?.email);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Errors = {
      fullname: values.fullname.trim() ? null : t('errors.required'),
      email: emailError(values.email, t),
    };
    setErrors(found);
    if (found.fullname || found.email) {
      focusFirstInvalid();
      return;
    }
    setSubmitting(true);
    setFeedback(null);
    try {
      if (user) {
        const body: UpdateUserBody = {
          fullname: values.fullname.trim(),
          email: values.email.trim(),
          preferredLocale: values.preferredLocale,
          ...(statusEditable ? { status: values.status } : {}),
        };
        const saved = await updateUser(user.id, body);
        notify({ status: 'success', message: t('users.modal.updated', { email: saved.email }) });
      } else {
        const saved = await createUser({
          fullname: values.fullname.trim(),
          email: values.email.trim(),
          type: values.type,
          preferredLocale: values.preferredLocale,
        });
        notify({ status: 'success', message: t('users.modal.created', { email: saved.email }) });
      }
      onClose();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [USERS_KEY] }),
        // An admin editing their own row changes what the top bar shows.
        user && user.id === me?.id ? queryClient.invalidateQueries({ queryKey: PROFILE_KEY }) : null,
      ]);
    } catch (error) {
      // What was typed stays in the form; the problem shows on its field and in the feedback area.
      setErrors(fieldErrorsOf(error, t));
      const key = user ? 'users.modal.updateError' : 'users.modal.createError';
      setFeedback(t(key, { error: apiErrorText(error, t) }));
      setSubmitting(false);
      focusFirstInvalid();
    }
  }

  return (
    <form ref={form} onSubmit={(event) => void submit(event)} noValidate data-testid="user-modal">
      <Stack gap="sm">
        <TextInput
          label={t('users.modal.fullname')}
          name="fullname"
          autoComplete="off"
          data-autofocus
          required
          withAsterisk={false}
          value={values.fullname}
          error={errors.fullname}
          onChange={(e) => set('fullname', e.currentTarget.value)}
        />
        <TextInput
          label={t('users.modal.email')}
          name="email"
          type="email"
          autoComplete="off"
          required
          withAsterisk={false}
          value={values.email}
          error={errors.email}
          onChange={(e) => set('email', e.currentTarget.value)}
        />
        {!user && (
          <NativeSelect
            label={t('users.modal.type')}
            name="type"
            value={values.type}
            error={errors.type}
            onChange={(e) => set('type', e.currentTarget.value as StaffType)}
            data={STAFF_TYPES.map((type) => ({ value: type, label: t(`roles.${type}`) }))}
          />
        )}
        <NativeSelect
          label={t('users.modal.preferredLocale')}
          name="preferredLocale"
          value={values.preferredLocale}
          error={errors.preferredLocale}
          onChange={(e) => set('preferredLocale', e.currentTarget.value as Locale)}
          data={LOCALES.map((locale) => ({ value: locale, label: t(`language.${locale}`) }))}
        />
        {user && (
          <NativeSelect
            label={t('users.modal.status')}
            name="status"
            value={values.status}
            disabled={!statusEditable}
            description={statusEditable ? undefined : t('users.modal.statusSelf')}
            error={errors.status}
            onChange={(e) => set('status', e.currentTarget.value as UserStatus)}
            data={USER_STATUSES.map((status) => ({ value: status, label: t(`userStatus.${status}`) }))}
          />
        )}
        {feedback && (
          <Alert color="red" role="alert" data-testid="user-modal-feedback">
            {feedback}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('users.modal.cancel')}
          </Button>
          <Button type="submit" loading={submitting}>
            {t('users.modal.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface UserModalProps {
  opened: boolean;
  /** The user being edited, or null to create one. */
  user: User | null;
  /** A new value gives a fresh form (a new user, or the same one opened again). */
  formKey: number;
  onClose: () => void;
}

/**
 * Stays mounted and is opened and closed, rather than mounted open: Mantine gives the focus back to
 * the button that opened the modal only when it sees `opened` change.
 */
export function UserModal({ opened, user, formKey, onClose }: UserModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={user ? t('users.modal.editTitle') : t('users.modal.createTitle')}
      closeButtonProps={{ 'aria-label': t('app.close') }}
      centered
    >
      <UserForm key={formKey} user={user} onClose={onClose} />
    </Modal>
  );
}
