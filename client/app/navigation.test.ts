import { describe, expect, it } from 'vitest';
import type { AccountSummary } from '../../common/api/auth';
import type { Role } from '../../common/roles';
import { profileCan, typeOfRole } from '../test/abilities';
import { currentAccount, homeShortcuts, topBarLinks } from './navigation';

const acme: AccountSummary = {
  id: 1,
  name: 'Acme',
  role: 'businessOwner',
  accountExecutive: { fullName: 'Alice', email: 'alice@vendor.example' },
};
const globex: AccountSummary = { id: 2, name: 'Globex', role: 'technicalContact', accountExecutive: null };

/** The profile the server sends for `yourRole`, with the abilities its policy gives. */
const profile = (yourRole: Role | null, accounts: AccountSummary[] = [acme]) => ({
  yourRole,
  accounts,
  accountsTotal: accounts.length,
  can: profileCan(typeOfRole(yourRole), yourRole),
});

describe('currentAccount', () => {
  it('is the stored customer when it is one of the user accounts, else the first', () => {
    expect(currentAccount(profile('businessOwner', [acme, globex]), '2')).toBe(globex);
    expect(currentAccount(profile('businessOwner', [acme, globex]), '99')).toBe(acme);
    expect(currentAccount(profile('admin', []), null)).toBeNull();
  });
});

describe('topBarLinks (spec 2 "Top bar")', () => {
  it('gives an admin every staff link and a brand to the root', () => {
    expect(topBarLinks(profile('admin', []), null)).toEqual({
      brand: '/',
      home: null,
      customers: true,
      products: true,
      users: true,
      webhooks: true,
      accountExecutiveEmail: null,
      myProjects: false,
      search: true,
    });
  });

  it('offers the search box to staff of every type and to no client', () => {
    for (const role of ['admin', 'accountExecutive', 'productManager', 'supportEngineer'] as const)
      expect(topBarLinks(profile(role, []), null).search, role).toBe(true);
    for (const role of ['businessOwner', 'technicalContact', 'endUser'] as const)
      expect(topBarLinks(profile(role), null).search, role).toBe(false);
  });

  it('gives product managers customers and products, support engineers customers only', () => {
    const pm = topBarLinks(profile('productManager', []), null);
    expect([pm.customers, pm.products, pm.users]).toEqual([true, true, false]);
    const se = topBarLinks(profile('supportEngineer', []), null);
    expect([se.customers, se.products, se.users]).toEqual([true, false, false]);
  });

  it('gives a single-account client a home link to the account and the account executive contact', () => {
    const links = topBarLinks(profile('businessOwner'), null);
    expect(links.brand).toBe('/accounts/1');
    expect(links.home).toEqual({ to: '/accounts/1', label: 'home' });
    expect(links.accountExecutiveEmail).toBe('alice@vendor.example');
    expect(links.myProjects).toBe(false);
    expect([links.customers, links.products, links.users]).toEqual([false, false, false]);
  });

  it('sends users of several accounts to the picker and offers My projects', () => {
    const links = topBarLinks(profile('technicalContact', [acme, globex]), '2');
    expect(links.home).toEqual({ to: '/select-account', label: 'home' });
    expect(links.brand).toBe('/accounts/2');
    expect(links.myProjects).toBe(true);
    expect(links.accountExecutiveEmail).toBeNull();
  });

  it('keeps the brand on a stored account beyond the 50 the profile lists', () => {
    const first50 = { ...profile('accountExecutive', [acme, globex]), accountsTotal: 80 };
    expect(topBarLinks(first50, '77').brand).toBe('/accounts/77');
    expect(topBarLinks(first50, null).brand).toBe('/accounts/1');
    // when the profile lists every account, one not among them is not the user's
    expect(topBarLinks(profile('technicalContact', [acme, globex]), '77').brand).toBe('/accounts/1');
  });

  it('labels the home link Customers for an account executive, who gets no contact link', () => {
    const links = topBarLinks(profile('accountExecutive', [{ ...acme, role: 'accountExecutive' }]), null);
    expect(links.home?.label).toBe('customers');
    expect(links.accountExecutiveEmail).toBeNull();
    expect(links.customers).toBe(false);
  });

  it('gives an end user only the brand to the root', () => {
    const links = topBarLinks(profile('endUser'), null);
    expect(links.brand).toBe('/');
    expect(links.home).toBeNull();
    expect(links.accountExecutiveEmail).toBeNull();
  });

  it("follows the profile's abilities, not its role", () => {
    const owner = profile('businessOwner');
    const links = topBarLinks(
      { ...owner, can: { ...owner.can, homeLink: false, accountExecutiveContact: false } },
      null,
    );
    expect(links.brand).toBe('/accounts/1');
    expect(links.home).toBeNull();
    expect(links.accountExecutiveEmail).toBeNull();
  });
});

describe('homeShortcuts', () => {
  it('offers each staff role the screens of its top bar, then the settings', () => {
    const keys = (role: Role) => homeShortcuts(profile(role, [])).map((s) => s.key);
    expect(keys('admin')).toEqual([
      'customers',
      'products',
      'analytics',
      'users',
      'webhooks',
      'backgroundWork',
      'settings',
    ]);
    expect(keys('productManager')).toEqual(['customers', 'products', 'analytics', 'settings']);
    expect(keys('supportEngineer')).toEqual(['customers', 'settings']);
    expect(homeShortcuts(profile('admin', [])).find((s) => s.key === 'users')?.to).toBe('/users');
    expect(homeShortcuts(profile('productManager', [])).find((s) => s.key === 'analytics')?.to).toBe('/analytics');
    expect(homeShortcuts(profile('admin', [])).find((s) => s.key === 'webhooks')?.to).toBe('/webhooks');
    expect(topBarLinks(profile('productManager', []), null).webhooks).toBe(false);
    // the Background work page: admins only
    expect(homeShortcuts(profile('admin', [])).find((s) => s.key === 'backgroundWork')?.to).toBe('/background-work');
  });
});
