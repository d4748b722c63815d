import { type ComponentType, lazy, Suspense, useLayoutEffect, useRef } from 'react';
import { withDeadline } from './code-deadline';
import { useTranslation } from '../i18n/use-translation';
import { Navigate, Outlet, Route, Routes, useLocation, useParams } from 'react-router';
import { isLocale, type Locale } from '../../common/roles';
import { customerPagePath, preloadGet } from '../api/preload';
import { DelayedLoader } from '../components/DelayedLoader';
import { PageErrorBoundary } from './ErrorBoundary';
import { pageWithoutSuspense } from './page-without-suspense';
import { NotFoundPage } from '../pages/error/NotFoundPage';
import { Guard } from './guards';
import { detectLocale, localizePath, ROUTE_RULES, splitLocale, switchLocale } from './routing';
import { MAIN_ID, Shell } from './Shell';
import { useFocusOnNavigation } from './focus-on-navigation';
import { useInterfaceLocale } from './use-interface-locale';
import { useProfile } from './session';
import { LOCALE_STORAGE_KEY, storage } from './storage';

/**
 * Each page's code by the first segment of its path (after the locale), for preloadPage; a page one
 * level below that has a page of its own (products/:key) by `segment/*`.
 */
const pageCode = new Map<string, () => Promise<unknown>>();

function page<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
  segment?: string,
) {
  if (segment !== undefined) pageCode.set(segment, load);
  return lazy(() => withDeadline(load()).then((module) => ({ default: module[name] as M[K] })));
}

/**
 * Each page's first data by the first segment of its path, for preloadPage: the customer page's one
 * answer (decision 052), asked for alongside its code rather than once the code has run.
 */
const pageData = new Map<string, (rest: string[]) => void>([
  [
    'accounts',
    ([id]) => {
      if (id && /^[1-9]\d{0,9}$/.test(id)) preloadGet(customerPagePath(Number(id)));
    },
  ],
]);

/**
 * Starts fetching the code of the page at `pathname` at once, alongside the texts and the profile,
 * instead of after the first render: one round trip less before the page paints. The same on each
 * navigation in the app, with the page's first data. A failure is left to the page's own fetch,
 * which the error boundary handles.
 */
export function preloadPage(pathname: string): void {
  const [segment = '', ...rest] = splitLocale(pathname).path.split('/').slice(1);
  const load = (rest[0] ? pageCode.get(`${segment}/*`) : undefined) ?? pageCode.get(segment);
  load?.().catch(() => {});
  pageData.get(segment)?.(rest);
}

const LogoutPage = page(() => import('../pages/logout/LogoutPage'), 'LogoutPage', 'logout');
const ConfirmEmailPage = page(
  () => import('../pages/confirm-email/ConfirmEmailPage'),
  'ConfirmEmailPage',
  'confirm-email',
);
const HomePage = page(() => import('../pages/home/HomePage'), 'HomePage', '');
const UsersPage = page(() => import('../pages/users/UsersPage'), 'UsersPage', 'users');
const BackgroundWorkPage = page(
  () => import('../pages/background-work/BackgroundWorkPage'),
  'BackgroundWorkPage',
  'background-work',
);
const SettingsPage = page(() => import('../pages/settings/SettingsPage'), 'SettingsPage', 'settings');
const AboutPage = page(() => import('../pages/about/AboutPage'), 'AboutPage');
const LegalPage = page(() => import('../pages/legal/LegalPage'), 'LegalPage');
const SelectAccountPage = page(() => import('../pages/select-account/SelectAccountPage'), 'SelectAccountPage');
const account = pageWithoutSuspense(() => import('../pages/account/AccountPage'), 'AccountPage');
pageCode.set('accounts', account.loadOnce);
const AccountPage = account.Page;
// no segment of its own: /accounts/:id preloads the customer page, which links here
const ChangesPage = page(() => import('../pages/changes/ChangesPage'), 'ChangesPage');
const InvitationPage = page(() => import('../pages/invitation/InvitationPage'), 'InvitationPage', 'invitation');
const CustomersPage = page(() => import('../pages/customers/CustomersPage'), 'CustomersPage', 'customers');
const AnalyticsPage = page(() => import('../pages/analytics/AnalyticsPage'), 'AnalyticsPage', 'analytics');
const WebhooksPage = page(() => import('../pages/webhooks/WebhooksPage'), 'WebhooksPage', 'webhooks');
const TestCheckoutPage = page(
  () => import('../pages/test-checkout/TestCheckoutPage'),
  'TestCheckoutPage',
  'test-checkout',
);
const ProductsPage = page(() => import('../pages/products/ProductsPage'), 'ProductsPage', 'products');
const ProductPage = page(() => import('../pages/products/ProductPage'), 'ProductPage', 'products/*');
const SignUpConfirmationPage = page(
  () => import('../pages/sign-up-confirmation/SignUpConfirmationPage'),
  'SignUpConfirmationPage',
  'sign-up',
);

/** A path without a locale segment: the same path under the visitor's locale (decisions, routing). */
function AddLocale() {
  const location = useLocation();
  const locale = detectLocale(storage.get(LOCALE_STORAGE_KEY), navigator.languages ?? [navigator.language]);
  return <Navigate replace to={`${localizePath(locale, location.pathname)}${location.search}${location.hash}`} />;
}

function Localized({ locale }: { locale: Locale }) {
  const { i18n } = useTranslation();
  const location = useLocation();
  const profile = useProfile().data;
  useInterfaceLocale(i18n, locale);
  useFocusOnNavigation(MAIN_ID);
  // A navigation asks for the next page's code and data as it renders, before the page suspends.
  const preloaded = useRef(location.pathname);
  if (preloaded.current !== location.pathname) {
    preloaded.current = location.pathname;
    preloadPage(location.pathname);
  }
  // Spec 2: the signed-in user's preferred locale wins over the one in the path.
  if (profile && profile.preferredLocale !== locale) {
    return (
      <Navigate replace to={switchLocale(location.pathname, location.search, location.hash, profile.preferredLocale)} />
    );
  }
  return (
    <Shell>
      {/* A page whose code cannot be fetched shows the error page under the top bar, not a blank screen. */}
      <PageErrorBoundary resetKey={location.pathname}>
        <Suspense fallback={<DelayedLoader />}>
          <Outlet />
        </Suspense>
      </PageErrorBoundary>
    </Shell>
  );
}

function LocaleRoot() {
  const { locale } = useParams();
  return isLocale(locale) ? <Localized locale={locale} /> : <AddLocale />;
}

/**
 * Login, password-lost, reset-password and sign-up are a page of their own, public.html, lighter than
 * this application (decisions 024, 067): reached from here, they are loaded as a page.
 */
function SignInPages() {
  const location = useLocation();
  useLayoutEffect(() => {
    window.location.replace(`${location.pathname}${location.search}${location.hash}`);
  }, [location]);
  return <DelayedLoader />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<AddLocale />} />
      <Route path="/:locale" element={<LocaleRoot />}>
        <Route index element={<Guard rule={ROUTE_RULES.home}>{<HomePage />}</Guard>} />
        <Route path="login" element={<SignInPages />} />
        <Route path="logout" element={<LogoutPage />} />
        <Route path="password-lost" element={<SignInPages />} />
        <Route path="reset-password/:token" element={<SignInPages />} />
        <Route path="confirm-email/:token" element={<ConfirmEmailPage />} />
        <Route path="invitation/:key" element={<InvitationPage />} />
        <Route path="sign-up" element={<SignInPages />} />
        <Route path="sign-up/confirmation/:key" element={<SignUpConfirmationPage />} />
        <Route
          path="select-account"
          element={<Guard rule={ROUTE_RULES.selectAccount}>{<SelectAccountPage />}</Guard>}
        />
        <Route path="accounts/:id" element={<Guard rule={ROUTE_RULES.account}>{<AccountPage />}</Guard>} />
        <Route
          path="accounts/:id/changes/:productKey/:since"
          element={<Guard rule={ROUTE_RULES.account}>{<ChangesPage />}</Guard>}
        />
        <Route
          path="test-checkout/:sessionId"
          element={<Guard rule={ROUTE_RULES.testCheckout}>{<TestCheckoutPage />}</Guard>}
        />
        <Route path="customers" element={<Guard rule={ROUTE_RULES.customers}>{<CustomersPage />}</Guard>} />
        <Route path="products" element={<Guard rule={ROUTE_RULES.products}>{<ProductsPage />}</Guard>} />
        <Route path="products/:key" element={<Guard rule={ROUTE_RULES.products}>{<ProductPage />}</Guard>} />
        <Route path="analytics" element={<Guard rule={ROUTE_RULES.analytics}>{<AnalyticsPage />}</Guard>} />
        <Route path="users" element={<Guard rule={ROUTE_RULES.users}>{<UsersPage />}</Guard>} />
        <Route path="webhooks" element={<Guard rule={ROUTE_RULES.webhooks}>{<WebhooksPage />}</Guard>} />
        <Route
          path="background-work"
          element={<Guard rule={ROUTE_RULES.backgroundWork}>{<BackgroundWorkPage />}</Guard>}
        />
        <Route path="settings" element={<Guard rule={ROUTE_RULES.settings}>{<SettingsPage />}</Guard>} />
        <Route path="about" element={<Guard rule={ROUTE_RULES.about}>{<AboutPage />}</Guard>} />
        <Route path="terms-and-conditions" element={<LegalPage document="terms-and-conditions" />} />
        <Route path="data-processing" element={<LegalPage document="data-processing" />} />
        <Route path="cookies-information" element={<LegalPage document="cookies-information" />} />
        <Route path="privacy-policy" element={<LegalPage document="privacy-policy" />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      <Route path="*" element={<AddLocale />} />
    </Routes>
  );
}
