import type { QueryClient } from '@tanstack/react-query';
import type { Profile } from '../../common/api/auth';
import { splitLocale } from './routing';

/**
 * What a page module may export as `prefetchData`: the queries its first render asks for, given the
 * page's path (without the locale), its address parameters and who is signed in. It checks itself
 * that the visitor may see the page, so that nothing is asked for that would be refused.
 */
export type PrefetchPageData = (
  queryClient: QueryClient,
  page: { path: string; search: URLSearchParams; profile: Profile },
) => void;

/** The pages whose first data is worth asking for before they render: by their path without the locale. */
const PAGES: { path: RegExp; load: () => Promise<{ prefetchData?: PrefetchPageData }> }[] = [
  { path: /^\/customers\/?$/, load: () => import('../pages/customers/CustomersPage') },
  { path: /^\/products\/[^/]+\/?$/, load: () => import('../pages/products/ProductPage') },
];

/**
 * Asks for the first data of the page at `pathname` as soon as both its code (already on its way,
 * routes.tsx preloadPage: the same module) and the profile are there, rather than once the page has
 * rendered, which waits for the texts and the styles too: the page's data comes a round trip sooner.
 * Nothing is asked for a visitor who is not signed in. A failure is left to the page's own query.
 */
export function prefetchPageData(
  queryClient: QueryClient,
  location: { pathname: string; search: string },
  profile: Promise<Profile | null>,
): void {
  const { path } = splitLocale(location.pathname);
  const page = PAGES.find((p) => p.path.test(path));
  if (!page) return;
  Promise.all([page.load(), profile])
    .then(([module, signedIn]) => {
      if (signedIn && module.prefetchData) {
        module.prefetchData(queryClient, { path, search: new URLSearchParams(location.search), profile: signedIn });
      }
    })
    .catch(() => {});
}
