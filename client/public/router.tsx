import {
  createContext,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { isPublicPage } from '../../common/public-pages';
import { DEFAULT_LOCALE, type Locale } from '../../common/roles';
import { localizePath, splitLocale } from '../app/routing';

/**
 * The sign-in pages' own router: three pages, so the browser's history is enough. A link to any other
 * page is an ordinary page load, which fetches the signed-in application (decision 024).
 */
export interface PublicLocation {
  pathname: string;
  search: string;
  hash: string;
  /** What the page that navigated here handed over (history state). */
  state: unknown;
}

interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

interface PublicRouterValue {
  location: PublicLocation;
  locale: Locale;
  navigate: (to: string, options?: NavigateOptions) => void;
}

const RouterContext = createContext<PublicRouterValue | null>(null);

/** How a page of the signed-in application is opened from here; tests replace it with spies. */
export const pageLoad = {
  assign: (url: string) => window.location.assign(url),
  replace: (url: string) => window.location.replace(url),
};

function currentLocation(): PublicLocation {
  const { pathname, search, hash } = window.location;
  return { pathname, search, hash, state: window.history.state as unknown };
}

/**
 * `initial`: the address to render at where there is no browser (the build's pre-rendering).
 * `hydrating`: the page on screen was rendered at build time, for its path alone: the first render
 * draws that (no query, no history state), or React refuses the markup (error #418) and draws the
 * page again; the address's query and state come in the render after.
 */
export function PublicRouter({
  children,
  initial,
  hydrating = false,
}: {
  children: ReactNode;
  initial?: PublicLocation;
  hydrating?: boolean;
}) {
  const [location, setLocation] = useState(
    () =>
      initial ??
      (hydrating ? { pathname: window.location.pathname, search: '', hash: '', state: null } : currentLocation()),
  );
  useEffect(() => {
    if (hydrating) setLocation(currentLocation());
    const onPopState = () => setLocation(currentLocation());
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [hydrating]);
  const navigate = useCallback((to: string, { replace = false, state = null }: NavigateOptions = {}) => {
    const url = new URL(to, window.location.href);
    if (url.origin !== window.location.origin || !isPublicPage(url.pathname)) {
      // The signed-in application's pages (and the legal ones) come with index.html.
      if (replace) pageLoad.replace(url.href);
      else pageLoad.assign(url.href);
      return;
    }
    window.history[replace ? 'replaceState' : 'pushState'](state, '', url.href);
    setLocation(currentLocation());
    window.scrollTo(0, 0);
  }, []);
  const value = useMemo(
    () => ({ location, locale: splitLocale(location.pathname).locale ?? DEFAULT_LOCALE, navigate }),
    [location, navigate],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function usePublicRouter(): PublicRouterValue {
  const value = useContext(RouterContext);
  if (!value) throw new Error('usePublicRouter needs a PublicRouter');
  return value;
}

/** Turns a bare path ('/password-lost') into the current locale's ('/fr/password-lost'). */
export function usePublicLocalize(): (path: string) => string {
  const { locale } = usePublicRouter();
  return useCallback((path: string) => localizePath(locale, path), [locale]);
}

type LinkProps = Omit<React.AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string };

/** An <a href>: a click on it stays in the page when it leads to another sign-in page. */
export function PublicLink({ to, onClick, ...props }: LinkProps) {
  const { navigate } = usePublicRouter();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={follow} {...props} />;
}
