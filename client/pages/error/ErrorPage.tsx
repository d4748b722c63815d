import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { useLocalize } from '../../app/locale';
import { usePageTitle } from '../../app/title';

interface ErrorPageProps {
  /** Spec 8: the title carries the HTTP status; without one (the server is out of reach) it is left out. */
  statusCode?: number;
  message: string;
  onRetry?: () => void;
  /** The retry button's text, when it does more than try again (a reload). */
  retryLabel?: string;
}

export function ErrorPage({ statusCode, message, onRetry, retryLabel }: ErrorPageProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const title = statusCode ? t('errors.title', { statusCode }) : t('errors.titleUnknown');
  usePageTitle(title);
  return (
    <Stack align="center" py="xl" gap="md" data-testid="error-page">
      <Title order={1}>{title}</Title>
      <Text role="alert">{message}</Text>
      <Group>
        {onRetry && (
          <Button variant="light" onClick={onRetry} data-testid="error-retry">
            {retryLabel ?? t('app.retry')}
          </Button>
        )}
        <Anchor component={Link} to={localize('/')}>
          {t('errors.backHome')}
        </Anchor>
      </Group>
    </Stack>
  );
}
