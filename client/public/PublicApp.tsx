import { withDeadline } from '../app/code-deadline';
import { type ComponentProps, type ComponentType, lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { ErrorBoundary } from '../app/ErrorBoundaryBase';
import { isChunkLoadError, reloadIfReleased, reloader } from '../app/reload';
import { useInterfaceLocale } from '../app/use-interface-locale';
import { splitLocale, switchLocale } from '../app/routing';
import { LOCALE_STORAGE_KEY, storage } from '../app/storage';
import { usePageTitle } from '../app/title';
import { LogoMark } from '../components/LogoMark';
import { languageSwitchText } from '../components/language-switch-text';
import { SkipLink } from '../components/SkipLink';
import type { Translator } from '../i18n/translate';
import { TranslatorProvider, useTranslation } from '../i18n/use-translation';
import { pageLoad, PublicLink, type PublicLocation, PublicRouter, usePublicLocalize, usePublicRouter } from './router';
import { type PublicSession, PublicSessionProvider, signedInTarget, usePublicProfile } from './session';
import { Button, DelayedLoader } from './ui';

/**
 * The sign-in pages (public.html): the portal's header, the pages, and the error page when a page
 * fails, with React and the shared form pattern but without the signed-in application's libraries
 * (decision 024), nor i18next: a small translator reads the same texts (decision 054). A signed-in visitor is sent on to the application.
 */

const pageCode = new Map<string, () => Promise<unknown>>();

/**
 * A sign-in page's code, loaded on demand. Once it has arrived, a page mounted from then on renders
 * it at once instead of through React.lazy, which suspends on its first render whatever the state of
 * the import: on a pre-rendered page (decision 024) that suspension left the page's markup
 * dehydrated, and the router's first update after hydration (the address's query and state) then
 * made React throw that markup away and draw it again, losing what the visitor typed meanwhile. The
 * choice is made once per mount, so a page never changes component under its own state.
 */
function page<K extends string, M extends Record<K, ComponentType<any>>>(
  segment: string,
  load: () => Promise<M>,
  name: K,
) {
  let loaded: M[K] | null = null;
  const loadAndKeep = () =>
    load().then((module) => {
      loaded = module[name];
      return module;
    });
  pageCode.set(segment, loadAndKeep);
  const Lazy = lazy(() => withDeadline(loadAndKeep()).then((module) => ({ default: module[name] })));
  return function PageCode(props: ComponentProps<M[K]>) {
    const [Component] = useState<ComponentType<any>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  };
}

const LoginPage = page('login', () => import('../pages/login/LoginPage'), 'LoginPage');
const PasswordLostPage = page(
  'password-lost',
  () => import('../pages/password-lost/PasswordLostPage'),
  'PasswordLostPage',
);
const SignUpPage = page('sign-up', () => import('../pages/sign-up/SignUpPage'), 'SignUpPage');
const ConsentPage = page('consent', () => import('../pages/consent/ConsentPage'), 'ConsentPage');
const ResetPasswordPage = page(
  'reset-password',
  () => import('../pages/reset-password/ResetPasswordPage'),
  'ResetPasswordPage',
);

/**
 * Starts fetching the page's code at once, beside its texts and the session; settles when it has come
 * (or failed: the page's error boundary then says so), so that a pre-rendered page is hydrated with
 * its code at hand.
 */
export function preloadPublicPage(pathname: string): Promise<void> {
  const segment = splitLocale(pathname).path.split('/')[1] ?? '';
  // every other address shows the login page (Page)
  const load = pageCode.get(segment) ?? pageCode.get('login');
  return (load?.() ?? Promise.resolve()).then(
    () => undefined,
    () => undefined,
  );
}

const MAIN_ID = 'main-content';

function LanguageButton() {
  const { t } = useTranslation();
  const { location, locale, navigate } = usePublicRouter();
  const { other, name, label } = languageSwitchText(t, locale);
  return (
    <Button
      variant="subtle"
      size="compact"
      title={label}
      aria-label={label}
      onClick={() => {
        storage.set(LOCALE_STORAGE_KEY, other);
        navigate(switchLocale(location.pathname, location.search, location.hash, other), { state: location.state });
      }}
      data-testid="language-switch"
    >
      <span lang={other}>{name}</span>
    </Button>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  return (
    <>
      <SkipLink targetId={MAIN_ID} />
      <header className="p-header">
        <PublicLink to={localize('/login')} className="p-brand" data-testid="nav-brand">
          <LogoMark />
          {t('app.name')}
        </PublicLink>
        <LanguageButton />
      </header>
      <main id={MAIN_ID} tabIndex={-1} className="p-main">
        {children}
      </main>
    </>
  );
}

/** Spec 8's error page for a page that failed: a reload for a new release, and the link home. */
function PageFailed({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const localize = usePublicLocalize();
  const title = t('errors.titleUnknown');
  usePageTitle(title);
  return (
    <div className="p-stack p-error-page" data-testid="error-page">
      <h1 className="p-title">{title}</h1>
      <p role="alert">{isChunkLoadError(error) ? t('errors.pageLoadFailed') : t('errors.pageFailed')}</p>
      <div className="p-group">
        <Button variant="light" onClick={() => reloader.reload()} data-testid="error-retry">
          {t('app.reload')}
        </Button>
        <a href={localize('/')} className="p-anchor">
          {t('errors.backHome')}
        </a>
      </div>
    </div>
  );
}

function Page() {
  const { location } = usePublicRouter();
  const { path } = splitLocale(location.pathname);
  const reset = /^\/reset-password\/([^/]+)\/?$/.exec(path);
  if (reset) return <ResetPasswordPage key={reset[1]} token={decodeURIComponent(reset[1])} />;
  if (path.startsWith('/password-lost')) return <PasswordLostPage />;
  if (path.startsWith('/sign-up')) return <SignUpPage />;
  if (path.startsWith('/consent')) return <ConsentPage />;
  return <LoginPage />;
}

/**
 * Login, password-lost, reset and sign-up are for visitors: a signed-in user goes on to the application. The
 * page shows while the session is being asked for, as its pre-rendered markup does (decision 024).
 */
function VisitorsOnly({ children }: { children: ReactNode }) {
  const profile = usePublicProfile();
  const { location } = usePublicRouter();
  const target = profile.data ? signedInTarget(profile.data, location.search) : null;
  useEffect(() => {
    if (target) pageLoad.replace(target);
  }, [target]);
  if (target) return <DelayedLoader />;
  return <>{children}</>;
}

function Localized({ translator }: { translator: Translator }) {
  const { location, locale } = usePublicRouter();
  useInterfaceLocale(translator, locale);
  return (
    <Shell>
      <ErrorBoundary
        resetKey={location.pathname}
        onChunkError={reloadIfReleased}
        fallback={(error) => <PageFailed error={error} />}
      >
        <Suspense fallback={<DelayedLoader />}>
          {/* the consent page is for the signed-in user an interaction signs in (decision 070) */}
          {splitLocale(location.pathname).path.startsWith('/consent') ? (
            <Page />
          ) : (
            <VisitorsOnly>
              <Page />
            </VisitorsOnly>
          )}
        </Suspense>
      </ErrorBoundary>
    </Shell>
  );
}

export function PublicApp({
  translator,
  session,
  location,
  hydrating,
}: {
  /** The texts, in the page's language to start with (the other one is fetched on a switch). */
  translator: Translator;
  session: PublicSession;
  /** Where to render when there is no browser (the build's pre-rendering). */
  location?: PublicLocation;
  /** The page on screen was rendered at build time and is being hydrated (PublicRouter). */
  hydrating?: boolean;
}) {
  return (
    <TranslatorProvider translator={translator}>
      <PublicSessionProvider session={session}>
        <PublicRouter initial={location} hydrating={hydrating}>
          <Localized translator={translator} />
        </PublicRouter>
      </PublicSessionProvider>
    </TranslatorProvider>
  );
}
