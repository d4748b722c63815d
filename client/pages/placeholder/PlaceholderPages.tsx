import { Alert, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/title';
import { PageHeader } from '../../components/PageHeader';

/** Routes whose screens come with later changes; their access rules already apply. */
export function PlaceholderPage({ titleKey, values }: { titleKey: string; values?: Record<string, string> }) {
  const { t } = useTranslation();
  const title = t(titleKey, values);
  usePageTitle(title);
  return (
    <Stack gap="md" py="md" data-testid="placeholder-page">
      <PageHeader title={title} />
      <Alert color="blue" title={t('placeholder.title')}>
        {t('placeholder.text')}
      </Alert>
    </Stack>
  );
}

export const SignUpPage = () => <PlaceholderPage titleKey="signUp.title" />;
export const SignUpConfirmationPage = () => <PlaceholderPage titleKey="signUp.confirmationTitle" />;
