import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { useLocalize } from '../../app/locale';
import { usePageTitle } from '../../app/title';

export function NotFoundPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const title = t('errors.title', { statusCode: 404 });
  usePageTitle(title);
  return (
    <Stack align="center" py="xl" gap="md" data-testid="not-found-page">
      <Title order={1}>{title}</Title>
      <Text>{t('errors.notFound')}</Text>
      <Anchor component={Link} to={localize('/')}>
        {t('errors.backHome')}
      </Anchor>
    </Stack>
  );
}
