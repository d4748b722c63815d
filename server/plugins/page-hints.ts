import fs from 'node:fs';
import path from 'node:path';
import { isLocale } from '../../common/roles';

/** One entry of the build's manifest (.vite/manifest.json), as Vite writes it. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * The module of each signed-in page, by its path without the locale (client/app/routes.tsx): what
 * its first render runs, beside the application's entry.
 */
export const PAGE_MODULES: readonly (readonly [RegExp, string])[] = [
  [/^\/?$/, 'client/pages/home/HomePage.tsx'],
  [/^\/select-account\/?$/, 'client/pages/select-account/SelectAccountPage.tsx'],
  [/^\/accounts\/[^/]+\/?$/, 'client/pages/account/AccountPage.tsx'],
  [/^\/test-checkout\/[^/]+\/?$/, 'client/pages/test-checkout/TestCheckoutPage.tsx'],
  [/^\/customers\/?$/, 'client/pages/customers/CustomersPage.tsx'],
  [/^\/products\/?$/, 'client/pages/products/ProductsPage.tsx'],
  [/^\/products\/[^/]+\/?$/, 'client/pages/products/ProductPage.tsx'],
  [/^\/analytics\/?$/, 'client/pages/analytics/AnalyticsPage.tsx'],
  [/^\/users\/?$/, 'client/pages/users/UsersPage.tsx'],
  [/^\/webhooks\/?$/, 'client/pages/webhooks/WebhooksPage.tsx'],
  [/^\/settings\/?$/, 'client/pages/settings/SettingsPage.tsx'],
  [/^\/about\/?$/, 'client/pages/about/AboutPage.tsx'],
];
export const TOP_BAR_MODULE = 'client/app/TopBar.tsx';
/** A language's texts, as the application loads them: the sign-in pages' sections, then the rest (vite.config.ts). */
export const textsModules = (locale: string) => [
  `client/i18n/${locale}.json?sign-in`,
  `client/i18n/${locale}.json?app`,
];

function collect(manifest: Manifest, key: string, into: Set<string>, seen = new Set<string>()): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const imported of chunk.imports ?? []) collect(manifest, imported, into, seen);
}

/**
 * The `<link>` elements that let a signed-in user's browser fetch, with the application's own
 * scripts, what the page at `pathname` would only ask for once those have run: the page's code, the
 * texts of its language and the top bar's code (with what each imports that the entry does not).
 * One round trip less before the page paints. Fetched only (`preload`, not `modulepreload`): a
 * module preloaded as such is also compiled at once, which held back the loader's first paint.
 * Empty without a manifest or for an unknown page.
 */
export function preloadLinks(manifest: Manifest | null, pathname: string): string {
  if (!manifest?.['index.html']) return '';
  const [, locale, ...rest] = pathname.split('/');
  const pagePath = `/${rest.join('/')}`;
  const page = PAGE_MODULES.find(([pattern]) => pattern.test(pagePath))?.[1];
  if (!isLocale(locale) || !page) return '';
  const data = pageData(pagePath).map(
    // `crossorigin`: the request the application's fetch() makes (cors mode, same-origin credentials)
    (url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`,
  );
  const loaded = new Set<string>();
  collect(manifest, 'index.html', loaded);
  const wanted = new Set<string>();
  for (const key of [page, ...textsModules(locale), TOP_BAR_MODULE]) collect(manifest, key, wanted);
  const code = [...wanted]
    .filter((file) => !loaded.has(file))
    // `crossorigin`: the build's loader adds the style sheets and scripts in cors mode, and a preload
    // in another mode would not be used (the file fetched twice)
    .map(
      (file) => `<link rel="preload" as="${file.endsWith('.css') ? 'style' : 'script'}" crossorigin href="/${file}">`,
    );
  return [...data, ...code].join('\n    ');
}

/**
 * The API answers a signed-in page asks for before it can paint, asked for by the HTML itself so
 * that they travel with the code instead of after it: the public configuration (every page) and the
 * customer page's one answer for its first screen (decision 052). Paths exactly as the client asks.
 */
export function pageData(pagePath: string): string[] {
  const urls = ['/api/config'];
  const account = /^\/accounts\/([1-9]\d{0,9})\/?$/.exec(pagePath);
  if (account) urls.push(`/api/customers/${account[1]}/page`);
  return urls;
}

/** The build's manifest under `root`, read again when the build changes; null without one. */
export function manifestReader(root: string): () => Manifest | null {
  const file = path.join(root, '.vite', 'manifest.json');
  let cached: { builtAt: number; manifest: Manifest | null } | null = null;
  return () => {
    try {
      const builtAt = fs.statSync(file).mtimeMs;
      if (cached?.builtAt !== builtAt) {
        cached = { builtAt, manifest: JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest };
      }
      return cached.manifest;
    } catch {
      return null;
    }
  };
}
