import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { Profile, PublicConfig } from '../../common/api/auth';
import type { Locale } from '../../common/roles';
import { CONFIG_KEY, PROFILE_KEY } from '../app/session';
import { cssVariablesResolver, theme } from '../app/theme';
import { createI18n } from '../i18n';
import { loadedTranslations } from '../i18n/load';
import { Translator } from '../i18n/translate';
import { TranslatorProvider } from '../i18n/use-translation';
import { profileCan } from './abilities';
import { PublicRouter, usePublicRouter } from '../public/router';
import { PublicSessionProvider } from '../public/session';

export const builtinConfig: PublicConfig = {
  captcha: { provider: 'builtin' },
  supportUrl: 'https://support.example.com',
  academyUrl: 'https://academy.example.com',
  telemetryUrl: 'https://telemetry.example.com/customers/{customerKey}',
  contactEmail: 'support@example.com',
  legalBaseUrl: null,
  devMailbox: false,
  selfServiceSignup: true,
  supportDesk: true,
};

export const adminProfile: Profile = {
  id: 1,
  email: 'admin@demo.portal',
  fullName: 'Alice Martin',
  preferredLocale: 'en',
  type: 'admin',
  yourRole: 'admin',
  accounts: [],
  accountsTotal: 0,
  can: profileCan('admin', 'admin'),
};

/** Where the router is: the path as text, the search and state as attributes (put it beside a page to follow its address). */
export function CurrentLocation() {
  const location = useLocation();
  return (
    <output data-testid="location" data-state={JSON.stringify(location.state ?? null)} data-search={location.search}>
      {location.pathname}
    </output>
  );
}

interface RenderPageOptions {
  /** The address the page is opened at, e.g. '/fr/reset-password/abc'. */
  path?: string;
  /** The route pattern the page is mounted under, e.g. '/:locale/reset-password/:token'. */
  route?: string;
  /** The signed-in user, or null for a visitor. */
  profile?: Profile | null;
  config?: PublicConfig;
  /** The router state the page is opened with, as another page's navigate(path, { state }) gives it. */
  state?: unknown;
}

/**
 * Renders one page as the app would (translations, queries, Mantine, a router with the locale
 * segment). The language follows the path's locale. Other paths render only the current location,
 * so a navigation can be asserted.
 */
export function renderPage(ui: ReactElement, options: RenderPageOptions = {}) {
  const { path = '/en', route = '/:locale', profile = adminProfile, config = builtinConfig, state } = options;
  const locale = (path.split(/[/?#]/)[1] || 'en') as Locale;
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  queryClient.setQueryData(PROFILE_KEY, profile);
  queryClient.setQueryData(CONFIG_KEY, config);
  const result = render(
    <TranslatorProvider translator={createI18n(locale)}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider env="test" theme={theme} cssVariablesResolver={cssVariablesResolver}>
          <MemoryRouter initialEntries={[state === undefined ? path : { pathname: path, state }]}>
            <Routes>
              <Route path={route} element={ui} />
              <Route path="*" element={<CurrentLocation />} />
            </Routes>
          </MemoryRouter>
        </MantineProvider>
      </QueryClientProvider>
    </TranslatorProvider>,
  );
  return { ...result, queryClient };
}

/** Shows where the sign-in pages' router is, so that a navigation can be asserted. */
function PublicLocation() {
  const { location } = usePublicRouter();
  return (
    <output data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {location.pathname}
    </output>
  );
}

/**
 * Renders one sign-in page as public.html does (translations, the visitor's session and settings,
 * the sign-in pages' router), at `path` with the history `state` another page handed over.
 */
export function renderPublicPage(
  ui: ReactElement,
  { path = '/en/login', profile = null, config = builtinConfig, state }: Omit<RenderPageOptions, 'route'> = {},
) {
  const locale = (path.split(/[/?#]/)[1] || 'en') as Locale;
  window.history.replaceState(state ?? null, '', path);
  return render(
    <TranslatorProvider translator={new Translator(locale, loadedTranslations())}>
      <PublicSessionProvider session={{ profile: Promise.resolve(profile), config: Promise.resolve(config) }}>
        <PublicRouter>
          {ui}
          <PublicLocation />
        </PublicRouter>
      </PublicSessionProvider>
    </TranslatorProvider>,
  );
}
