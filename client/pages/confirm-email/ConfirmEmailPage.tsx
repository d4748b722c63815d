import { Alert, Anchor, Loader, Paper, Stack, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link, useParams } from 'react-router';
import { ERROR_CODES } from '../../../common/api/errors';
import { confirmEmail } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useLocalize } from '../../app/locale';
import { PROFILE_KEY, useProfile } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { apiErrorText } from '../../components/forms';

type Outcome =
  | { state: 'confirming' }
  | { state: 'confirmed'; email: string }
  | { state: 'invalid' }
  | { state: 'taken' }
  | { state: 'failed'; reason: string };

/**
 * The page of the link mailed to a new address (/:locale/confirm-email/:token). Public: the link may
 * be opened in a browser where nobody is signed in. The link works once, so it is sent once.
 */
export function ConfirmEmailPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('confirmEmail.title'));
  const token = useParams().token ?? '';
  const queryClient = useQueryClient();
  const signedIn = Boolean(useProfile().data);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'confirming' });
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    confirmEmail({ token }).then(
      (result) => {
        setOutcome({ state: 'confirmed', email: result.email });
        void queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.code === ERROR_CODES.invalidToken) setOutcome({ state: 'invalid' });
        else if (error instanceof ApiError && error.code === ERROR_CODES.emailTaken) setOutcome({ state: 'taken' });
        else setOutcome({ state: 'failed', reason: apiErrorText(error, t) });
      },
    );
  }, [token, queryClient, t]);

  return (
    <Stack maw={480} mx="auto" mt="xl">
      <Paper withBorder shadow="sm" p="xl" radius="md">
        <Stack gap="md" data-testid="confirm-email" data-state={outcome.state}>
          <Title order={1} size="h2">
            {t('confirmEmail.title')}
          </Title>
          {outcome.state === 'confirming' && <Loader size="sm" aria-label={t('confirmEmail.confirming')} />}
          {outcome.state === 'confirmed' && (
            <Alert color="teal">{t('confirmEmail.success', { email: outcome.email })}</Alert>
          )}
          {outcome.state === 'invalid' && (
            <Alert color="red" role="alert">
              {t('confirmEmail.invalid')}
            </Alert>
          )}
          {outcome.state === 'taken' && (
            <Alert color="red" role="alert">
              {t('confirmEmail.taken')}
            </Alert>
          )}
          {outcome.state === 'failed' && (
            <Alert color="red" role="alert">
              {t('confirmEmail.failed', { error: outcome.reason })}
            </Alert>
          )}
          {outcome.state !== 'confirming' && (
            <Anchor component={Link} to={localize(signedIn ? '/settings' : '/login')}>
              {signedIn ? t('confirmEmail.toSettings') : t('confirmEmail.toLogin')}
            </Anchor>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
