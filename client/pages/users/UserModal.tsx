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
import { useProfile } from '../../app/session';
import { apiErrorText, emailError, fieldErrorsOf } from '../../components/forms';
import { notify } from '../../components/notify';
import { USERS_KEY } from './usersKey';

interface Values {
  fullname: string;
  email: string;
  type: StaffType;
  preferredLocale: Locale;
  status: UserStatus;
}

type Errors = Partial<Record<keyof Values, string | null>>;

/** Spec 5 "User": create defaults to type admin and locale en; new users are enabled. */
export function UserModal({ user, onClose }: { user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useProfile().data;
  const editing = user !== null;
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
  // Spec 4: nobody changes their own status; compared on the e-mail, as the spec says.
  const statusEditable = editing && user.email.toLowerCase() !== me?.email.toLowerCase();

  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Errors = {
      fullname: values.fullname.trim() ? null : t('errors.required'),
      email: emailError(values.email, t),
    };
    setErrors(found);
    if (found.fullname || found.email) return;
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
      await queryClient.invalidateQueries({ queryKey: [USERS_KEY] });
      onClose();
    } catch (error) {
      setErrors(fieldErrorsOf(error, t));
      const key = editing ? 'users.modal.updateError' : 'users.modal.createError';
      setFeedback(t(key, { error: apiErrorText(error, t) }));
      setSubmitting(false);
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={editing ? t('users.modal.editTitle') : t('users.modal.createTitle')}
      centered
    >
      <form onSubmit={submit} noValidate data-testid="user-modal">
        <Stack gap="sm">
          <TextInput
            label={t('users.modal.fullname')}
            name="fullname"
            data-autofocus
            value={values.fullname}
            error={errors.fullname}
            onChange={(e) => set('fullname', e.currentTarget.value)}
          />
          <TextInput
            label={t('users.modal.email')}
            name="email"
            type="email"
            value={values.email}
            error={errors.email}
            onChange={(e) => set('email', e.currentTarget.value)}
          />
          {!editing && (
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
          {editing && (
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
    </Modal>
  );
}
