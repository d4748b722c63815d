import { Alert, Button, Group, NativeSelect, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '../../../common/api/auth';
import { LOCALES, type Locale } from '../../../common/roles';
import { updateProfile } from '../../api/auth';
import { PROFILE_KEY, setProfile, useProfile } from '../../app/session';
import { LOCALE_STORAGE_KEY, storage } from '../../app/storage';
import { usePageTitle } from '../../app/title';
import { apiErrorText, emailError, fieldErrorsOf } from '../../components/forms';
import { notify } from '../../components/notify';
import { useFocusFirstInvalid } from '../../components/useFocusFirstInvalid';

interface Values {
  email: string;
  fullName: string;
  preferredLocale: Locale;
  currentPassword: string;
}

type Errors = Partial<Record<keyof Values, string | null>>;

function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>({
    email: profile.email,
    fullName: profile.fullName,
    preferredLocale: profile.preferredLocale,
    currentPassword: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  // A new e-mail takes effect from the link mailed to it, after the current password (docs/security.md).
  const emailChanged = values.email.trim().toLowerCase() !== profile.email.toLowerCase();
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const { ref: form, focusFirstInvalid } = useFocusFirstInvalid();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Errors = {
      email: emailError(values.email, t),
      fullName: values.fullName.trim() ? null : t('errors.required'),
      currentPassword: emailChanged && !values.currentPassword ? t('errors.required') : null,
    };
    setErrors(found);
    if (found.email || found.fullName || found.currentPassword) {
      focusFirstInvalid();
      return;
    }
    setSubmitting(true);
    setFailure(null);
    try {
      const requestedEmail = emailChanged ? values.email.trim() : null;
      const saved = await updateProfile({
        fullName: values.fullName.trim(),
        preferredLocale: values.preferredLocale,
        ...(requestedEmail ? { email: requestedEmail, currentPassword: values.currentPassword } : {}),
      });
      storage.set(LOCALE_STORAGE_KEY, saved.preferredLocale);
      notify({ status: 'success', message: t('settings.saved', { lng: saved.preferredLocale }) });
      // The address stays the old one until the link is followed: the form shows it again.
      setPendingEmail(requestedEmail);
      setValues((v) => ({ ...v, email: saved.email, currentPassword: '' }));
      // A new preferred locale moves the page to that locale (the profile's locale wins over the path).
      setProfile(queryClient, saved);
      await queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
    } catch (error) {
      // Spec 8: "Some of your settings could not be updated.", with the reason; what was typed stays.
      const reason = apiErrorText(error, t);
      setErrors(fieldErrorsOf(error, t));
      setFailure(reason);
      focusFirstInvalid();
      notify({ status: 'error', title: t('settings.error'), message: reason });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <form ref={form} onSubmit={(event) => void submit(event)} noValidate data-testid="settings-profile">
      <Stack gap="sm" maw={440}>
        <TextInput
          label={t('settings.email')}
          type="email"
          name="email"
          autoComplete="email"
          required
          withAsterisk={false}
          value={values.email}
          error={errors.email}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setValues((v) => ({ ...v, email: value }));
          }}
        />
        {emailChanged && (
          <PasswordInput
            label={t('settings.currentPassword')}
            description={t('settings.currentPasswordHint')}
            name="currentPassword"
            autoComplete="current-password"
            required
            withAsterisk={false}
            value={values.currentPassword}
            error={errors.currentPassword}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setValues((v) => ({ ...v, currentPassword: value }));
            }}
          />
        )}
        {pendingEmail && (
          <Alert color="blue" data-testid="settings-email-pending">
            {t('settings.emailConfirmationSent', { email: pendingEmail })}
          </Alert>
        )}
        <TextInput
          label={t('settings.fullName')}
          name="fullName"
          autoComplete="name"
          required
          withAsterisk={false}
          value={values.fullName}
          error={errors.fullName}
          onChange={(e) => {
            const value = e.currentTarget.value;
            setValues((v) => ({ ...v, fullName: value }));
          }}
        />
        <NativeSelect
          label={t('settings.preferredLanguage')}
          name="preferredLocale"
          value={values.preferredLocale}
          error={errors.preferredLocale}
          onChange={(e) => {
            const value = e.currentTarget.value as Locale;
            setValues((v) => ({ ...v, preferredLocale: value }));
          }}
          data={LOCALES.map((locale) => ({ value: locale, label: t(`language.${locale}`) }))}
        />
        {failure && (
          <Alert color="red" role="alert" title={t('settings.error')} data-testid="settings-error">
            {failure}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={submitting}>
            {t('settings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  const profile = useProfile().data;
  usePageTitle(t('settings.title'));
  if (!profile) return null;
  return (
    <Stack gap="lg" py="md">
      <Title order={1}>{t('settings.title')}</Title>
      <Paper withBorder p="lg" radius="md">
        <Title order={2} size="h3" mb="md">
          {t('settings.profile')}
        </Title>
        <ProfileForm key={`${profile.id}-${profile.email}`} profile={profile} />
      </Paper>
      {/* Notification preferences per membership (spec 2 "Settings") are saved together with the profile
          once the memberships API exists; this block is where they go. */}
      <Paper withBorder p="lg" radius="md" data-testid="settings-notifications">
        <Title order={2} size="h3" mb="md">
          {t('settings.notifications')}
        </Title>
        <Alert color="gray">{t('settings.notificationsLater')}</Alert>
      </Paper>
    </Stack>
  );
}
