import { Anchor, AppShell, Container, Group } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { useLocalize } from './locale';
import { useProfile } from './session';
import { TopBar } from './TopBar';

const MAIN_ID = 'main-content';

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

/** Hidden until focused: keyboard users jump over the top bar to the page itself. */
function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      href={`#${MAIN_ID}`}
      style={{ position: 'absolute', left: 8, top: 8, zIndex: 1000 }}
      className="skip-link"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      {t('app.skipToContent')}
    </a>
  );
}

/** The top bar is for signed-in users only (spec 2); visitors get the brand and the language switch. */
export function Shell({ children }: { children: ReactNode }) {
  const profile = useProfile().data;
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <SkipLink />
      <AppShell.Header>{profile ? <TopBar profile={profile} /> : <PublicHeader />}</AppShell.Header>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <Container size="lg">{children}</Container>
      </AppShell.Main>
    </AppShell>
  );
}
