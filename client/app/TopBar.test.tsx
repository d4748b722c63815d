// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../common/api/auth';
import { COMPACT_TOP_BAR_QUERY, SMALL_SCREEN_QUERY } from '../components/layout';
import { profileCan } from '../test/abilities';
import { fakeMatchMedia } from '../test/media';
import { fakeApi } from '../test/fake-api';
import { adminProfile, renderPage } from '../test/render';
import { TopBar } from './TopBar';

// The bell asks for the notifications as soon as the top bar shows.
beforeEach(() =>
  fakeApi({
    'GET /api/notifications': () => ({
      status: 200,
      body: { data: [], offset: 0, total: 0, totalCapped: false, unread: 0, unreadCapped: false },
    }),
  }),
);

const owner: Profile = {
  id: 7,
  email: 'owner@demo.portal',
  fullName: 'Olivia Owner',
  preferredLocale: 'en',
  type: 'client',
  yourRole: 'businessOwner',
  accounts: [
    { id: 3, name: 'Acme', role: 'businessOwner', accountExecutive: { fullName: 'Alex', email: 'ae@vendor.test' } },
  ],
  accountsTotal: 1,
  can: profileCan('client', 'businessOwner'),
};

function renderTopBar(profile: Profile, path: string) {
  return renderPage(<TopBar profile={profile} />, { path, route: '/:locale/*', profile });
}

describe('TopBar current link', () => {
  it('marks the link of the current page, and of the pages under it', () => {
    renderTopBar(adminProfile, '/en/users');
    const users = screen.getByTestId('nav-users');
    expect(users.getAttribute('aria-current')).toBe('page');
    expect(users.hasAttribute('data-active')).toBe(true);
    for (const other of ['nav-customers', 'nav-products']) {
      expect(screen.getByTestId(other).getAttribute('aria-current'), other).toBeNull();
    }
  });

  it('marks Products on a product page', () => {
    renderTopBar(adminProfile, '/en/products/graph-db');
    expect(screen.getByTestId('nav-products').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('nav-users').getAttribute('aria-current')).toBeNull();
  });

  it('keeps the links in a navigation landmark that does not clip their focus rings', () => {
    renderTopBar(adminProfile, '/en');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByTestId('nav-users')).toBeTruthy();
    expect(['auto', 'hidden', 'scroll', 'clip']).not.toContain(getComputedStyle(nav).overflowX);
    expect(screen.queryByTestId('nav-burger')).toBeNull();
  });
});

describe('TopBar on a phone', () => {
  const original = Object.getOwnPropertyDescriptor(window, 'matchMedia');
  beforeEach(() => {
    window.matchMedia = fakeMatchMedia((query) => query === SMALL_SCREEN_QUERY || query === COMPACT_TOP_BAR_QUERY);
  });
  afterEach(() => {
    if (original) Object.defineProperty(window, 'matchMedia', original);
  });

  it('folds the links and the contact into a burger menu; the bell and the user menu stay', async () => {
    renderTopBar(owner, '/en/accounts/3');
    expect(screen.queryByTestId('nav-home')).toBeNull();
    expect(screen.queryByTestId('nav-ae-contact')).toBeNull();
    expect(screen.getByTestId('notification-centre')).toBeTruthy();
    expect(screen.getByTestId('user-menu')).toBeTruthy();

    const burger = screen.getByRole('button', { name: 'Menu' });
    expect(burger.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(burger);
    expect(burger.getAttribute('aria-expanded')).toBe('true');
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    expect(within(drawer).getByTestId('nav-home').getAttribute('aria-current')).toBe('page');
    expect(within(drawer).getByTestId('nav-ae-contact').getAttribute('href')).toBe('mailto:ae@vendor.test');
  });

  it('offers no burger to a user with no link to fold', () => {
    const endUser: Profile = {
      ...owner,
      yourRole: 'endUser',
      accounts: [{ ...owner.accounts[0]!, role: 'endUser' }],
      can: profileCan('client', 'endUser'),
    };
    renderTopBar(endUser, '/en/accounts/3');
    expect(screen.queryByTestId('nav-burger')).toBeNull();
    expect(screen.getByTestId('user-menu')).toBeTruthy();
  });
});

describe('TopBar for a user with several accounts', () => {
  const twoAccounts: Profile = {
    ...owner,
    accounts: [
      owner.accounts[0],
      { id: 4, name: 'Globex', role: 'businessOwner', accountExecutive: { fullName: 'Bea', email: 'bea@vendor.test' } },
    ],
    accountsTotal: 2,
  };
  // a wide screen: the contact in the bar
  beforeEach(() => {
    window.matchMedia = fakeMatchMedia(() => false);
  });
  afterEach(() => window.localStorage.clear());

  it('leads the brand and the contact to the account on screen, not the one viewed before', () => {
    window.localStorage.setItem('customer', '3');
    renderTopBar(twoAccounts, '/en/accounts/4');
    expect(screen.getByTestId('nav-brand').getAttribute('href')).toBe('/en/accounts/4');
    expect(screen.getByTestId('nav-ae-contact').getAttribute('href')).toBe('mailto:bea@vendor.test');
  });

  it("shows no other account's executive for an account the profile does not list", () => {
    window.localStorage.setItem('customer', '3');
    renderTopBar({ ...twoAccounts, accountsTotal: 60 }, '/en/accounts/55');
    expect(screen.getByTestId('nav-brand').getAttribute('href')).toBe('/en/accounts/55');
    expect(screen.queryByTestId('nav-ae-contact')).toBeNull();
  });

  it('keeps the account last viewed on the pages of no account', () => {
    window.localStorage.setItem('customer', '4');
    renderTopBar(twoAccounts, '/en/settings');
    expect(screen.getByTestId('nav-brand').getAttribute('href')).toBe('/en/accounts/4');
    expect(screen.getByTestId('nav-ae-contact').getAttribute('href')).toBe('mailto:bea@vendor.test');
  });
});

describe('TopBar account menu', () => {
  it('offers admins the Webhooks page after their settings, and no one else', async () => {
    renderTopBar(adminProfile, '/en');
    fireEvent.click(screen.getByTestId('user-menu'));
    const webhooks = await screen.findByTestId('menu-webhooks');
    expect(webhooks.getAttribute('href')).toBe('/en/webhooks');
    const items = screen.getAllByRole('menuitem').map((item) => item.getAttribute('data-testid'));
    expect(items.slice(0, 3)).toEqual(['menu-settings', 'menu-webhooks', 'menu-about']);
  });

  it('leaves it out for a product manager', async () => {
    renderTopBar(
      {
        ...adminProfile,
        type: 'productManager',
        yourRole: 'productManager',
        can: profileCan('productManager', 'productManager'),
      },
      '/en',
    );
    fireEvent.click(screen.getByTestId('user-menu'));
    await screen.findByTestId('menu-settings');
    expect(screen.queryByTestId('menu-webhooks')).toBeNull();
  });
});
