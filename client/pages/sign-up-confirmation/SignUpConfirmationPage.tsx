import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link, useParams } from 'react-router';
import { configQuery } from '../../api/auth';
import { ApiError } from '../../api/client';
import { signupByKeyQuery } from '../../api/signup-confirmation';
import { useLocalize } from '../../app/locale';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { ErrorPage } from '../error/ErrorPage';
import { ConfirmationFlow } from './ConfirmationFlow';

function SignupError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const status = error instanceof ApiError && error.status >= 400 ? error.status : undefined;
  return <ErrorPage statusCode={status} message={apiErrorText(error, t)} />;
}

/** Spec 2: links to contact and help, and to sign in. */
function HelpLinks() {
  const { t } = useTranslation();
  const localize = useLocalize();
  const config = useQuery(configQuery()).data;
  return (
    <Group gap="md" justify="space-between" data-testid="signup-help">
      <Group gap="xs">
        <Text size="sm">{t('signUpConfirmation.help')}</Text>
        {config && (
          <>
            <Anchor size="sm" href={`mailto:${config.contactEmail}`}>
              {t('signUpConfirmation.contact')}
            </Anchor>
            <Anchor size="sm" href={config.supportUrl} target="_blank" rel="noreferrer">
              {t('signUpConfirmation.helpCenter')}
            </Anchor>
          </>
        )}
      </Group>
      <Group gap="xs">
        <Text size="sm">{t('signUpConfirmation.haveAccount')}</Text>
        <Anchor size="sm" component={Link} to={localize('/login')}>
          {t('signUpConfirmation.login')}
        </Anchor>
      </Group>
    </Group>
  );
}

/**
 * /{locale}/sign-up/confirmation/{key} (spec 2, docs/decisions/067), in the application: the link
 * mailed at sign-up opens the wizard, or the error page when it is unknown, spent or expired.
 */
export function SignUpConfirmationPage() {
  const { t } = useTranslation();
  usePageTitle(t('signUpConfirmation.title'));
  const key = useParams().key ?? '';
  const signup = useQuery(signupByKeyQuery(key));
  const [ended, setEnded] = useState<unknown>(null);
  if (signup.isPending) return <DelayedLoader />;
  if (signup.isError) return <SignupError error={signup.error} />;
  if (ended) return <SignupError error={ended} />;
  const preview = signup.data;
  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="md" maw={720} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('signUpConfirmation.heading')}
        </Title>
        <Text data-testid="signup-summary">
          {t('signUpConfirmation.for', { company: preview.companyName, email: preview.email })}
        </Text>
        <ConfirmationFlow signupKey={key} preview={preview} onEnded={setEnded} />
        <HelpLinks />
      </Stack>
    </Paper>
  );
}
