import type { AccountSummary, Profile } from '../../common/api/auth';
import { STAFF_TYPES } from '../../common/roles';
import { storedCustomerOf } from './routing';

type NavProfile = Pick<Profile, 'yourRole' | 'accounts' | 'accountsTotal' | 'can'>;

/** The account the user is working on: the stored one when it is still theirs, else the first. */
export function currentAccount(profile: NavProfile, storedCustomer: string | null): AccountSummary | null {
  const stored = profile.accounts.find((a) => String(a.id) === storedCustomer);
  return stored ?? profile.accounts[0] ?? null;
}

/**
 * The brand of those who work inside their accounts: the account they work on. The profile lists the
 * first 50 accounts only, so a stored one beyond them (an account executive's 51st customer) still counts.
 */
function brandPath(profile: NavProfile, account: AccountSummary | null, storedCustomer: string | null): string {
  const accounts = { ids: profile.accounts.map((a) => a.id), total: profile.accountsTotal };
  const stored = storedCustomerOf(storedCustomer, accounts);
  if (stored) return `/accounts/${stored}`;
  return account ? `/accounts/${account.id}` : '/select-account';
}

function accountPath(profile: NavProfile, account: AccountSummary | null): string {
  if (profile.accountsTotal > 1 || !account) return '/select-account';
  return `/accounts/${account.id}`;
}

export interface TopBarLinks {
  brand: string;
  home: { to: string; label: 'home' | 'customers' } | null;
  customers: boolean;
  products: boolean;
  users: boolean;
  /** in the account menu (admins) */
  webhooks: boolean;
  accountExecutiveEmail: string | null;
  myProjects: boolean;
  /** the search box: staff of every type (GET /api/search refuses clients) */
  search: boolean;
}

/**
 * Spec 2 "Top bar": which links show and where they lead, as bare paths. The profile's abilities
 * decide (`can`, from the server's policy: staff links by the user's type, the account links by the
 * role that stands for the user in the accounts they work on).
 */
export function topBarLinks(profile: NavProfile, storedCustomer: string | null): TopBarLinks {
  const role = profile.yourRole;
  const account = currentAccount(profile, storedCustomer);
  // An account beyond the profile's first 50: its executive is not known here, and the first
  // account's would be someone else's.
  const unlisted =
    account?.id !== Number(storedCustomer) &&
    storedCustomerOf(storedCustomer, { ids: profile.accounts.map((a) => a.id), total: profile.accountsTotal }) !== null;
  const { can } = profile;
  const brand = can.brandToAccount ? brandPath(profile, account, storedCustomer) : '/';
  return {
    brand,
    home: can.homeLink
      ? { to: accountPath(profile, account), label: role === 'accountExecutive' ? 'customers' : 'home' }
      : null,
    customers: can.viewCustomers,
    products: can.viewProducts,
    users: can.manageUsers,
    webhooks: can.manageWebhooks,
    accountExecutiveEmail: can.accountExecutiveContact ? (!unlisted && account?.accountExecutive?.email) || null : null,
    myProjects: profile.accountsTotal > 1,
    search: (STAFF_TYPES as readonly (string | null)[]).includes(role),
  };
}

type ShortcutKey = 'customers' | 'products' | 'analytics' | 'users' | 'webhooks' | 'backgroundWork' | 'settings';

interface Shortcut {
  key: ShortcutKey;
  /** bare path, to localize */
  to: string;
}

/**
 * The home page's shortcuts: the staff screens the top bar offers the role (same capability table),
 * then the user's own settings, which every role has.
 */
export function homeShortcuts(profile: NavProfile): Shortcut[] {
  const links = topBarLinks(profile, null);
  const shortcuts: Shortcut[] = [];
  if (links.customers) shortcuts.push({ key: 'customers', to: '/customers' });
  if (links.products) shortcuts.push({ key: 'products', to: '/products' });
  // not in the top bar, which must still fit a 390 px screen: reached from here and the products page
  if (profile.can.viewDownloadAnalytics) shortcuts.push({ key: 'analytics', to: '/analytics' });
  if (links.users) shortcuts.push({ key: 'users', to: '/users' });
  // like the analytics: reached from here and the account menu, the top bar staying narrow
  if (links.webhooks) shortcuts.push({ key: 'webhooks', to: '/webhooks' });
  // for operators rather than everyday work: reached from here, like the analytics
  if (profile.can.manageBackgroundWork) shortcuts.push({ key: 'backgroundWork', to: '/background-work' });
  shortcuts.push({ key: 'settings', to: '/settings' });
  return shortcuts;
}
