import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { STORAGE_KEYS } from '../../common/constants';
import { ApiError } from '../api/client';
import { DelayedLoader } from '../components/DelayedLoader';
import { apiErrorText } from '../components/forms';
import { ErrorPage } from '../pages/error/ErrorPage';
import { useLocalize } from './locale';
import { isRememberablePath, ROUTE_RULES, type RouteRule, routeAccess, splitLocale } from './routing';
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
  // REQUIRE_2FA_FOR: until a second factor is added, the settings page (where it is added) is the
  // only page; the API refuses the others' calls anyway.
  if (profile?.twoFactorSetupRequired && rule !== ROUTE_RULES.settings) {
    return <Navigate replace to={localize('/settings')} />;
  }
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
