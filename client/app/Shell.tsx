import { Anchor, AppShell, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useLocalize } from './locale';
import { useProfile } from './session';
import { TopBar } from './TopBar';

function PublicHeader() {
  const { t } = useTranslation();
  const localize = useLocalize();
  return (
    <Group h="100%" px="md" justify="space-between">
      <Anchor component={Link} to={localize('/login')} fw={700} size="lg" underline="never" data-testid="nav-brand">
        {t('app.name')}
      </Anchor>
      <LanguageSwitch />
    </Group>
  );
}

/** The top bar is for signed-in users only (spec 2); visitors get the brand and the language switch. */
export function Shell({ children }: { children: ReactNode }) {
  const profile = useProfile().data;
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>{profile ? <TopBar profile={profile} /> : <PublicHeader />}</AppShell.Header>
      <AppShell.Main>
        <Container size="lg">{children}</Container>
      </AppShell.Main>
    </AppShell>
  );
}
