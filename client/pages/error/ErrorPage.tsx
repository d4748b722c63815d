import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocalize } from '../../app/locale';

export function ErrorPage({ statusCode, message }: { statusCode: number; message: string }) {
  const { t } = useTranslation();
  const localize = useLocalize();
  return (
    <Stack align="center" py="xl" gap="md" data-testid="error-page">
      <Title order={1}>{t('errors.title', { statusCode })}</Title>
      <Text>{message}</Text>
      <Anchor component={Link} to={localize('/')}>
        {t('errors.backHome')}
      </Anchor>
    </Stack>
  );
}
