import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { STORAGE_KEYS } from '../../common/constants';
import { ApiError } from '../api/client';
import { DelayedLoader } from '../components/DelayedLoader';
import { apiErrorText } from '../components/forms';
import { ErrorPage } from '../pages/error/ErrorPage';
import { useLocalize } from './locale';
import {
  isRememberablePath,
  isSafeLocalPath,
  localizePath,
  loginTarget,
  type RouteRule,
  routeAccess,
  splitLocale,
  toBarePath,
} from './routing';
import { useProfile } from './session';
import { storage } from './storage';

function RedirectToLogin() {
  const location = useLocation();
  const navigate = useNavigate();
  const localize = useLocalize();
  useEffect(() => {
    const { path } = splitLocale(location.pathname);
    if (isRememberablePath(path)) storage.set(STORAGE_KEYS.redirect, `${path}${location.search}${location.hash}`);
    void navigate(localize('/login'), { replace: true });
  }, [location, navigate, localize]);
  return null;
}

/** Applies a route's rule (spec 2): sign-in, role, or the redirect the rule names. */
export function Guard({ rule, children }: { rule: RouteRule; children: ReactNode }) {
  const { t } = useTranslation();
  const profileQuery = useProfile();
  const localize = useLocalize();
  const wasAuthenticated = useRef(false);
  if (profileQuery.isPending) return <DelayedLoader />;
  if (profileQuery.isError) {
    const { error } = profileQuery;
    return (
      <ErrorPage
        statusCode={error instanceof ApiError && error.status >= 400 ? error.status : undefined}
        message={apiErrorText(error, t)}
        onRetry={() => void profileQuery.refetch()}
      />
    );
  }
  const profile = profileQuery.data;
  if (profile) wasAuthenticated.current = true;
  const access = routeAccess(rule, profile);
  switch (access.kind) {
    case 'allow':
      return <>{children}</>;
    case 'login':
      // Spec 2: a session lost while on the page ends on the logout page rather than silently at login.
      return wasAuthenticated.current ? <Navigate replace to={localize('/logout')} /> : <RedirectToLogin />;
    case 'forbidden':
      return <ErrorPage statusCode={403} message={t('errors.forbidden')} />;
    case 'redirect':
      return <Navigate replace to={localize(access.to)} />;
  }
}

/** Login, password-lost and reset: a signed-in user goes to the `redirect` parameter or their home. */
export function UnauthenticatedOnly({ children }: { children: ReactNode }) {
  const profileQuery = useProfile();
  const [searchParams] = useSearchParams();
  if (profileQuery.isPending) return <DelayedLoader />;
  const profile = profileQuery.data;
  if (!profile) return <>{children}</>;
  const requested = searchParams.get('redirect');
  const target = isSafeLocalPath(requested)
    ? toBarePath(requested)
    : loginTarget({
        type: profile.type,
        storedRedirect: storage.get(STORAGE_KEYS.redirect),
        storedCustomer: storage.get(STORAGE_KEYS.customer),
        accounts: { ids: profile.accounts.map((a) => a.id), total: profile.accountsTotal },
      });
  return <Navigate replace to={localizePath(profile.preferredLocale, target)} />;
}
