import { Container, Group } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { SkipLink } from '../components/SkipLink';
import { BrandLink } from '../components/Logo';
import { useLocalize } from './locale';
import type { Profile } from '../../common/api/auth';
import { splitLocale } from './routing';
import { useProfile } from './session';
import { ShellFrame, ShellHeader, ShellMain } from './ShellFrame';

export const MAIN_ID = 'main-content';

// Signed-in users only: its menus and popovers stay out of the sign-in page's JavaScript (decision 020).
const loadTopBar = () => import('./TopBar');
const TopBar = lazy(() => loadTopBar().then((module) => ({ default: module.TopBar })));

/** The first segments (after the locale) of the pages that only signed-in users see (spec 2). */
const SIGNED_IN_PAGES = new Set([
  '',
  'select-account',
  'accounts',
  'customers',
  'products',
  'analytics',
  'users',
  'webhooks',
  'settings',
  'about',
]);

/**
 * Starts fetching the top bar's code with the page's rather than after the first render: at once on
 * a page only signed-in users see, else once the profile says someone is signed in.
 */
export function preloadTopBar(pathname: string, profile: Promise<Profile | null>): void {
  const segment = splitLocale(pathname).path.split('/')[1] ?? '';
  const signedIn = SIGNED_IN_PAGES.has(segment) ? Promise.resolve(true) : profile.then(Boolean);
  signedIn.then((yes) => (yes ? loadTopBar() : null)).catch(() => {});
}

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
    <ShellFrame>
      <SkipLink targetId={MAIN_ID} />
      <ShellHeader>
        {profile ? (
          <Suspense fallback={null}>
            <TopBar profile={profile} />
          </Suspense>
        ) : (
          <PublicHeader />
        )}
      </ShellHeader>
      <ShellMain id={MAIN_ID}>
        <Container size="lg" px={{ base: 'xs', sm: 'md' }}>
          {children}
        </Container>
      </ShellMain>
    </ShellFrame>
  );
}
