import { Alert, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from '../i18n/use-translation';
import { apiErrorText } from './forms';

interface LoadErrorProps {
  /** the list's query, as react-query gives it */
  query: { isError: boolean; error: unknown; isFetching: boolean; refetch: () => unknown };
  /** the list's "could not be loaded: {{error}}" text */
  messageKey: string;
  testId: string;
}

/** A list that could not be loaded: the reason in the reader's language, and a retry (spec 8). */
export function LoadError({ query, messageKey, testId }: LoadErrorProps) {
  const { t } = useTranslation();
  if (!query.isError) return null;
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t(messageKey, { error: apiErrorText(query.error, t) })}</Text>
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          loading={query.isFetching}
          onClick={() => void query.refetch()}
        >
          {t('app.retry')}
        </Button>
      </Stack>
    </Alert>
  );
}
