import { AppShell, Container, Group } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { SkipLink } from '../components/SkipLink';
import { HEADER_HEIGHT } from '../components/layout';
import { BrandLink } from '../components/Logo';
import { useLocalize } from './locale';
import { useProfile } from './session';

const MAIN_ID = 'main-content';

// Signed-in users only: its menus and popovers stay out of the sign-in page's JavaScript (decision 020).
const TopBar = lazy(() => import('./TopBar').then((module) => ({ default: module.TopBar })));

function PublicHeader() {
  const localize = useLocalize();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <BrandLink to={localize('/login')} />
      <LanguageSwitch />
    </Group>
  );
}

/** The top bar is for signed-in users only (spec 2); visitors get the brand and the language switch. */
export function Shell({ children }: { children: ReactNode }) {
  const profile = useProfile().data;
  return (
    <AppShell header={{ height: HEADER_HEIGHT }} padding={{ base: 'xs', sm: 'md' }}>
      <SkipLink targetId={MAIN_ID} />
      <AppShell.Header>
        {profile ? (
          <Suspense fallback={null}>
            <TopBar profile={profile} />
          </Suspense>
        ) : (
          <PublicHeader />
        )}
      </AppShell.Header>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <Container size="lg" px={{ base: 'xs', sm: 'md' }}>
          {children}
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
