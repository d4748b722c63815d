import { Alert, Button, Group, Paper, Stack, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Navigate, useParams } from 'react-router';
import type { InvitationPreview } from '../../../common/api/invitation-acceptance';
import { acceptAsExistingUser, invitationByKeyQuery } from '../../api/invitation-acceptance';
import { useLocalize } from '../../app/locale';
import { useProfile } from '../../app/session';
import { usePageTitle } from '../../app/title';
import { DelayedLoader } from '../../components/DelayedLoader';
import { apiErrorText } from '../../components/forms';
import { ErrorPage } from '../error/ErrorPage';
import { NewUserFlow } from './NewUserFlow';
import { endsInvitation, InvitationError, InvitationSummary, useFinishJoining } from './shared';

/** Where an existing user who is not signed in goes: sign-in, then back to this page (decision 028). */
function loginAndBack(localize: (path: string) => string, key: string): string {
  return `${localize('/login')}?redirect=${encodeURIComponent(localize(`/invitation/${key}`))}`;
}

function JoinCard({ invitationKey, invitation }: { invitationKey: string; invitation: InvitationPreview }) {
  const { t } = useTranslation();
  const finish = useFinishJoining();
  const [ended, setEnded] = useState<unknown>(null);
  const join = useMutation({
    mutationFn: () => acceptAsExistingUser(invitationKey),
    onSuccess: ({ customerId }) => finish(customerId, invitation.customerName),
    onError: (error) => {
      if (endsInvitation(error)) setEnded(error);
    },
  });
  if (ended) return <InvitationError error={ended} />;
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={560} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('invitation.heading', { customer: invitation.customerName })}
        </Title>
        <InvitationSummary invitation={invitation} />
        {join.isError && (
          <Alert color="red" role="alert" data-testid="invitation-feedback">
            {t('invitation.error', { error: apiErrorText(join.error, t) })}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={() => join.mutate()} loading={join.isPending} data-testid="invitation-join">
            {t('invitation.join')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * /{locale}/invitation/{key}: a new address goes through the join card, the EULA, the GDPR notice and
 * the sign-up form; an existing account joins with one button once signed in; a dead link shows the
 * error page with its reason.
 */
export function InvitationPage() {
  const { t } = useTranslation();
  usePageTitle(t('invitation.title'));
  const localize = useLocalize();
  const key = useParams().key ?? '';
  const invitation = useQuery(invitationByKeyQuery(key));
  const profile = useProfile();
  if (invitation.isPending || profile.isPending) return <DelayedLoader />;
  if (invitation.isError) return <InvitationError error={invitation.error} />;
  const preview = invitation.data;
  if (preview.status === 'expired') {
    return <ErrorPage statusCode={410} message={t('apiErrors.invitation_expired')} />;
  }
  if (preview.newUser) return <NewUserFlow invitationKey={key} invitation={preview} />;
  if (!profile.data) return <Navigate replace to={loginAndBack(localize, key)} />;
  return <JoinCard invitationKey={key} invitation={preview} />;
}
