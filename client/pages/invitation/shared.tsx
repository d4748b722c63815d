import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import { useNavigate } from 'react-router';
import type { InvitationPreview } from '../../../common/api/invitation-acceptance';
import { STORAGE_KEYS } from '../../../common/constants';
import { getProfile } from '../../api/auth';
import { ApiError } from '../../api/client';
import { useLocale } from '../../app/locale';
import { localizePath } from '../../app/routing';
import { setProfile } from '../../app/session';
import { storage } from '../../app/storage';
import { apiErrorText } from '../../components/forms';
import { notify } from '../../components/notify';
import { ErrorPage } from '../error/ErrorPage';

/** What both ways of joining share: the summary, the error page of a dead link, and what follows joining. */

/** Refusals that end the visit (the link is dead, or not for this account): the error page says why. */
export function endsInvitation(error: unknown): boolean {
  return error instanceof ApiError && error.code.startsWith('invitation_');
}

export function InvitationError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const status = error instanceof ApiError && error.status >= 400 ? error.status : undefined;
  return <ErrorPage statusCode={status} message={apiErrorText(error, t)} />;
}

/** Who invites whom where: the customer, the role, the inviter (spec 2, "Accept invitation"). */
export function InvitationSummary({ invitation }: { invitation: InvitationPreview }) {
  const { t } = useTranslation();
  const values = {
    customer: invitation.customerName,
    role: t(`roles.${invitation.role}`),
    inviter: invitation.inviterFullName ?? '',
  };
  return (
    <Text data-testid="invitation-summary">
      {invitation.inviterFullName ? t('invitation.invitedBy', values) : t('invitation.invited', values)}
    </Text>
  );
}

/**
 * After joining (or confirming a sign-up): the profile is read again (it now lists the customer, and
 * for a new account it is the first one), the customer is remembered as the current one, and its
 * page opens; `message` says so in place of the invitation's welcome.
 */
export function useFinishJoining() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const locale = useLocale();
  return async (customerId: number, customerName: string, message?: string) => {
    const profile = await getProfile();
    setProfile(queryClient, profile);
    storage.set(STORAGE_KEYS.customer, String(customerId));
    notify({ status: 'success', message: message ?? t('invitation.joined', { customer: customerName }) });
    await navigate(localizePath(profile?.preferredLocale ?? locale, `/accounts/${customerId}`), { replace: true });
  };
}
