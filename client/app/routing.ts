import type { Profile } from '../../common/api/auth';
import type { PROFILE_ABILITIES } from '../../common/api/abilities';
import { DEFAULT_LOCALE, isLocale, type Locale, type UserType } from '../../common/roles';

/** Paths here are "bare": without the locale segment, always starting with '/'. */

export function splitLocale(pathname: string): { locale: Locale | null; path: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  if (match && isLocale(match[1])) return { locale: match[1], path: match[2] || '/' };
  return { locale: null, path: pathname.startsWith('/') ? pathname : `/${pathname}` };
}

export function localizePath(locale: Locale, path: string): string {
  const bare = path.startsWith('/') ? path : `/${path}`;
  return bare === '/' ? `/${locale}` : `/${locale}${bare}`;
}

/** The same page under another locale, keeping the query string and the hash. */
export function switchLocale(pathname: string, search: string, hash: string, locale: Locale): string {
  return `${localizePath(locale, splitLocale(pathname).path)}${search}${hash}`;
}

/** Stored choice first, then the browser's languages, then English. */
export function detectLocale(stored: string | null, languages: readonly string[]): Locale {
  if (isLocale(stored)) return stored;
  for (const language of languages) {
    const base = language.toLowerCase().split('-')[0];
    if (isLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}

/** Only same-site paths may be redirect targets: no scheme, no protocol-relative '//host'. */
export function isSafeLocalPath(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\');
}

/** A local target, possibly localized and with a query string, without its locale segment. */
export function toBarePath(target: string): string {
  const cut = target.search(/[?#]/);
  const pathname = cut === -1 ? target : target.slice(0, cut);
  return splitLocale(pathname).path + (cut === -1 ? '' : target.slice(cut));
}

const NEVER_REMEMBERED = ['/login', '/logout', '/404'];

/** Spec 2 and 4: invitation links, login, logout and not-found pages are never remembered as a redirect. */
export function isRememberablePath(path: string): boolean {
  const bare = splitLocale(path.split(/[?#]/)[0]).path;
  if (bare === '/invitation' || bare.startsWith('/invitation/')) return false;
  return !NEVER_REMEMBERED.some((p) => bare === p || bare.startsWith(`${p}/`));
}

interface LoginTargetInput {
  type: UserType;
  storedRedirect: string | null;
  storedCustomer: string | null;
  /** the profile's accounts: the first ones by name, and how many there are in all */
  accounts?: { ids: readonly number[]; total: number };
}

/**
 * The stored customer, when it may be the user's: a browser shared by two people keeps the last
 * one's customer if their session simply expired, and the next user must not land on a page that is
 * not theirs. When the profile lists all the user's accounts, the stored one must be among them.
 */
export function storedCustomerOf(stored: string | null, accounts: LoginTargetInput['accounts']): string | null {
  if (!stored || !/^\d+$/.test(stored)) return null;
  if (accounts && accounts.total <= accounts.ids.length && !accounts.ids.includes(Number(stored))) return null;
  return stored;
}

/** Spec 4 "Login success", as a bare path; the caller localizes it with the user's locale. */
export function loginTarget({ type, storedRedirect, storedCustomer, accounts }: LoginTargetInput): string {
  if (isSafeLocalPath(storedRedirect) && isRememberablePath(storedRedirect)) {
    return toBarePath(storedRedirect);
  }
  if (type === 'accountExecutive' || type === 'client') {
    const customer = storedCustomerOf(storedCustomer, accounts);
    return customer ? `/accounts/${customer}` : '/select-account';
  }
  return '/';
}

export type RouteRule =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'ability'; ability: (typeof PROFILE_ABILITIES)[number]; otherwise: 'forbidden' | { redirect: string } }
  | { kind: 'accountPicker' };

type Access = { kind: 'allow' } | { kind: 'login' } | { kind: 'forbidden' } | { kind: 'redirect'; to: string };

/**
 * Who may see a route (spec 2, decisions): the pages the profile's abilities open (`can`, computed by
 * the server's policy from the global capability table).
 */
export function routeAccess(rule: RouteRule, profile: Pick<Profile, 'can'> | null): Access {
  if (rule.kind === 'public') return { kind: 'allow' };
  if (!profile) return { kind: 'login' };
  switch (rule.kind) {
    case 'authenticated':
      return { kind: 'allow' };
    case 'accountPicker':
      // Staff who see every customer have no picker; anyone else (even without an account yet) does.
      return profile.can.viewHome ? { kind: 'redirect', to: '/' } : { kind: 'allow' };
    case 'ability':
      if (profile.can[rule.ability]) return { kind: 'allow' };
      return rule.otherwise === 'forbidden' ? { kind: 'forbidden' } : { kind: 'redirect', to: rule.otherwise.redirect };
  }
}

/** Route rules of spec 2, keyed by route id. */
export const ROUTE_RULES = {
  home: { kind: 'ability', ability: 'viewHome', otherwise: { redirect: '/select-account' } },
  selectAccount: { kind: 'accountPicker' },
  account: { kind: 'authenticated' },
  // the built-in test checkout's pages (docs/billing.md): the server decides whose session it is
  testCheckout: { kind: 'authenticated' },
  customers: { kind: 'ability', ability: 'viewCustomers', otherwise: 'forbidden' },
  products: { kind: 'ability', ability: 'viewProducts', otherwise: 'forbidden' },
  analytics: { kind: 'ability', ability: 'viewDownloadAnalytics', otherwise: 'forbidden' },
  users: { kind: 'ability', ability: 'manageUsers', otherwise: 'forbidden' },
  webhooks: { kind: 'ability', ability: 'manageWebhooks', otherwise: 'forbidden' },
  backgroundWork: { kind: 'ability', ability: 'manageBackgroundWork', otherwise: 'forbidden' },
  settings: { kind: 'authenticated' },
  about: { kind: 'authenticated' },
} as const satisfies Record<string, RouteRule>;
