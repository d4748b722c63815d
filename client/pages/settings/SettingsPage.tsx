import { Alert, Button, Group, NativeSelect, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { type Profile, UpdateProfileBody } from '../../../common/api/auth';
import { LOCALES, type Locale } from '../../../common/roles';
import { authKeys, updateProfile } from '../../api/auth';
import { customerKeys } from '../../api/customers';
import { membershipKeys, updateNotificationSettings } from '../../api/settings';
import { setProfile, useProfile } from '../../app/session';
import { LOCALE_STORAGE_KEY, storage } from '../../app/storage';
import { usePageTitle } from '../../app/title';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { PageHeader } from '../../components/PageHeader';
import { ensureTranslations } from '../../i18n';
import { useSchemaForm } from '../../components/use-schema-form';
import { editFlag, hasNotificationBlocks, NotificationBlocks, type SettingsEdits } from './NotificationBlocks';
import { SignInSecurity } from './SignInSecurity';

interface Values extends Record<string, unknown> {
  email: string;
  fullName: string;
  preferredLocale: Locale;
  currentPassword: string;
}

function ProfileForm({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  // A new e-mail takes effect from the link mailed to it, after the current password (docs/security.md).
  const changesEmail = (values: Values) => values.email.trim().toLowerCase() !== profile.email.toLowerCase();
  /** The request: the e-mail and the current password only when the e-mail changes. */
  const bodyOf = (values: Values): UpdateProfileBody => ({
    fullName: values.fullName,
    preferredLocale: values.preferredLocale,
    ...(changesEmail(values) ? { email: values.email, currentPassword: values.currentPassword } : {}),
  });
  const { form, ref, onSubmit, showFieldErrors } = useSchemaForm<Values>({
    initialValues: {
      email: profile.email,
      fullName: profile.fullName,
      preferredLocale: profile.preferredLocale,
      currentPassword: '',
    },
    schema: UpdateProfileBody,
    select: bodyOf,
  });
  const emailChanged = changesEmail(form.values);
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  const [edits, setEdits] = useState<SettingsEdits>({});
  // A block that could not be saved: the profile was, so this is said apart from a failed save.
  const [blocksError, setBlocksError] = useState<unknown>(null);

  /** Every changed block, at the same time as the profile; the profile's failure is the save's. */
  async function saveAll(body: UpdateProfileBody) {
    const blocks = Object.entries(edits).map(([id, patch]) => ({ id: Number(id), patch }));
    const [profileResult, ...blockResults] = await Promise.allSettled([
      updateProfile(UpdateProfileBody.parse(body)),
      ...blocks.map((block) => updateNotificationSettings(block.id, block.patch)),
    ]);
    const savedBlocks = blocks.filter((_, i) => blockResults[i].status === 'fulfilled').map((b) => b.id);
    setEdits((current) =>
      Object.fromEntries(Object.entries(current).filter(([id]) => !savedBlocks.includes(Number(id)))),
    );
    const failed = blockResults.find((result) => result.status === 'rejected');
    setBlocksError(failed ? (failed.reason as unknown) : null);
    if (blocks.length) {
      await queryClient.invalidateQueries({ queryKey: membershipKeys.mine });
      await queryClient.invalidateQueries({ queryKey: customerKeys.all });
    }
    if (profileResult.status === 'rejected') throw profileResult.reason;
    return { saved: profileResult.value, blocksError: failed ? (failed.reason as unknown) : null };
  }

  const save = useMutation({
    mutationFn: saveAll,
    onSuccess: async ({ saved, blocksError: failedBlock }, body) => {
      storage.set(LOCALE_STORAGE_KEY, saved.preferredLocale);
      // Each language's texts are fetched when first needed: the message is in the saved one.
      // Texts that could not be fetched: the message in the language on screen rather than as a key.
      const lng = (await ensureTranslations(i18n, saved.preferredLocale)) ? saved.preferredLocale : i18n.language;
      if (failedBlock) {
        notify({ status: 'error', title: t('settings.error', { lng }), message: apiErrorText(failedBlock, t) });
      } else {
        notify({ status: 'success', message: t('settings.saved', { lng }) });
      }
      // The address stays the old one until the link is followed: the form shows it again.
      setPendingEmail(body.email ?? null);
      form.setValues({ email: saved.email, currentPassword: '' });
      // A new preferred locale moves the page to that locale (the profile's locale wins over the path).
      setProfile(queryClient, saved);
      await queryClient.invalidateQueries({ queryKey: authKeys.profile });
    },
    onError: (error) => {
      // Spec 8: "Some of your settings could not be updated.", with the reason; what was typed stays.
      showFieldErrors(error);
      notify({ status: 'error', title: t('settings.error'), message: apiErrorText(error, t) });
      void queryClient.invalidateQueries({ queryKey: authKeys.profile });
    },
  });

  return (
    <form
      ref={ref}
      onSubmit={onSubmit((values) => save.mutate(bodyOf(values)))}
      noValidate
      data-testid="settings-profile"
    >
      <Stack gap="lg">
        <Paper withBorder p="lg" radius="md">
          <Title order={2} size="h3" mb="md">
            {t('settings.profile')}
          </Title>
          <Stack gap="sm" maw={440}>
            <TextInput
              label={t('settings.email')}
              type="email"
              name="email"
              autoComplete="email"
              required
              withAsterisk={false}
              {...form.getInputProps('email')}
            />
            {emailChanged && (
              <PasswordInput
                label={t('settings.currentPassword')}
                description={t('settings.currentPasswordHint')}
                name="currentPassword"
                autoComplete="current-password"
                required
                withAsterisk={false}
                {...form.getInputProps('currentPassword')}
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
              {...form.getInputProps('fullName')}
            />
            <NativeSelect
              label={t('settings.preferredLanguage')}
              name="preferredLocale"
              data={LOCALES.map((locale) => ({ value: locale, label: t(`language.${locale}`) }))}
              {...form.getInputProps('preferredLocale')}
            />
          </Stack>
        </Paper>
        {hasNotificationBlocks(profile) && (
          <Paper withBorder p="lg" radius="md" data-testid="settings-notifications">
            <Title order={2} size="h3" mb="md">
              {t('settings.notifications')}
            </Title>
            <NotificationBlocks
              profile={profile}
              edits={edits}
              onEdit={(membership, flag, value) => setEdits((current) => editFlag(current, membership, flag, value))}
            />
          </Paper>
        )}
        {(save.error ?? blocksError) !== null && (
          <Alert color="red" role="alert" title={t('settings.error')} data-testid="settings-error">
            {apiErrorText(save.error ?? blocksError, t)}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
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
      <PageHeader title={t('settings.title')} />
      {profile.twoFactorSetupRequired && (
        <Alert color="yellow" title={t('security.requiredTitle')} data-testid="two-factor-required">
          {t('security.required')}
        </Alert>
      )}
      <ProfileForm key={`${profile.id}-${profile.email}`} profile={profile} />
      <SignInSecurity />
    </Stack>
  );
}
