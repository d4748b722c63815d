import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../../app/session';
import { usePageTitle } from '../../app/title';

export function HomePage() {
  const { t } = useTranslation();
  const profile = useProfile().data;
  usePageTitle(t('home.title'));
  return (
    <Stack gap="sm" py="md">
      <Title order={1}>{t('home.welcome', { fullName: profile?.fullName ?? '' })}</Title>
      <Text c="dimmed">{t('home.intro')}</Text>
    </Stack>
  );
}
