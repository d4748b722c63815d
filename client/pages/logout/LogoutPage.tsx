import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { logout } from '../../api/auth';
import { endProviderSession } from '../../api/oidc';
import { useLocalize } from '../../app/locale';
import { forgetSession, useProfile } from '../../app/session';
import { DelayedLoader } from '../../components/DelayedLoader';
import { usePageTitle } from '../../app/title';

/** Public: signs out when there is a session (spec 2), of the provider too, then offers the way back to login. */
export function LogoutPage() {
  const { t } = useTranslation();
  const localize = useLocalize();
  usePageTitle(t('logout.title'));
  const queryClient = useQueryClient();
  const profileQuery = useProfile();
  const started = useRef(false);
  const [done, setDone] = useState(false);
  const profile = profileQuery.data;
  const settled = !profileQuery.isPending;

  useEffect(() => {
    if (!settled || started.current) return;
    started.current = true;
    // Spec 4: the OpenID Connect logout handshake too, whose failures are ignored; it also ends a
    // provider session that outlived the portal's (docs/oidc.md).
    if (!profile) {
      void endProviderSession().finally(() => {
        forgetSession(queryClient);
        setDone(true);
      });
      return;
    }
    // A failed logout call still ends the session here: the server forgets idle sessions anyway.
    void logout()
      .catch(() => undefined)
      .then(endProviderSession)
      .finally(() => {
        forgetSession(queryClient);
        setDone(true);
      });
  }, [settled, profile, queryClient]);

  if (!done) return <DelayedLoader />;
  return (
    <Stack align="center" py="xl" gap="md" data-testid="logout-page">
      <Title order={1}>{t('logout.title')}</Title>
      <Text>{t('logout.done')}</Text>
      <Anchor component={Link} to={localize('/login')}>
        {t('logout.backToLogin')}
      </Anchor>
    </Stack>
  );
}
