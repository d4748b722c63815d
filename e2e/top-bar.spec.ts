import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { canGlobally, canInCustomer } from '../common/permissions';
import { ROLES, type Role } from '../common/roles';
import { signIn } from './helpers/auth';
import { DEMO_ACCOUNTS, type DemoAccount, demoAccount } from './helpers/demo';
import { EXPECTED_TOP_BAR, TOP_BAR_LINKS, type TopBarLink } from './helpers/top-bar';
import { signInThroughApi } from './helpers/session';
import { openUserMenu } from './helpers/ui';

const STAFF_WITH_HOME: readonly Role[] = ['admin', 'productManager', 'supportEngineer'];

/** Where sign-in lands (spec 4 "Login success"): staff on the home page, others on their account(s). */
async function expectLanding(page: Page, account: DemoAccount): Promise<void> {
  if (STAFF_WITH_HOME.includes(account.role)) {
    await expect(page).toHaveURL(/\/en$/);
    await expect(page.getByRole('heading', { name: `Welcome, ${account.fullName}` })).toBeVisible();
  } else if (account.role === 'accountExecutive') {
    // Two customers: the account picker.
    await expect(page).toHaveURL(/\/en\/select-account$/);
  } else {
    // One customer: straight to its page.
    await expect(page).toHaveURL(/\/en\/accounts\/\d+$/);
  }
}

test.describe('top bar by role', () => {
  test('the expected table agrees with the capability table', () => {
    // Staff links are global capabilities; the account links are read with the profile's role.
    const shownTo: Partial<Record<TopBarLink, (role: Role) => boolean>> = {
      'nav-home': (role) => canInCustomer(role, 'homeLink'),
      'nav-customers': (role) => canGlobally(role, 'viewCustomers'),
      'nav-products': (role) => canGlobally(role, 'viewProducts'),
      'nav-users': (role) => canGlobally(role, 'manageUsers'),
      'nav-ae-contact': (role) => canInCustomer(role, 'accountExecutiveContact'),
    };
    for (const role of ROLES) {
      const fromCapabilities = TOP_BAR_LINKS.filter((link) => shownTo[link]?.(role) ?? true);
      expect([...EXPECTED_TOP_BAR[role]].sort(), role).toEqual([...fromCapabilities].sort());
    }
  });

  test('the demo seed has one account per role', () => {
    expect(DEMO_ACCOUNTS.map((a) => a.role).sort()).toEqual([...ROLES].sort());
  });

  for (const role of ROLES) {
    test(`${role} sees exactly the links of the role`, async ({ page }) => {
      const account = demoAccount(role);
      // Through the sign-in page: where it lands each role is part of what is checked.
      await signIn(page, account);
      await expectLanding(page, account);

      const expected = EXPECTED_TOP_BAR[role];
      for (const link of TOP_BAR_LINKS) {
        if (expected.includes(link)) await expect(page.getByTestId(link), `${link} for ${role}`).toBeVisible();
        else await expect(page.getByTestId(link), `${link} for ${role}`).toHaveCount(0);
      }
      await expect(page.getByTestId('notification-centre')).toBeVisible();

      const brand = page.getByTestId('nav-brand');
      const home = page.getByTestId('nav-home');
      if (STAFF_WITH_HOME.includes(role)) {
        await expect(brand).toHaveAttribute('href', '/en');
      } else if (role !== 'endUser') {
        // Spec 2: the brand leads to the account page for account executives and client contacts.
        await expect(brand).toHaveAttribute('href', /^\/en\/accounts\/\d+$/);
      }
      if (role === 'accountExecutive') {
        // Labelled Customers for an account executive; several accounts, so it leads to the picker.
        await expect(home).toHaveText('Customers');
        await expect(home).toHaveAttribute('href', '/en/select-account');
      }
      if (role === 'businessOwner' || role === 'technicalContact') {
        await expect(home).toHaveText('Home');
        await expect(home).toHaveAttribute('href', /^\/en\/accounts\/\d+$/);
        await expect(page.getByTestId('nav-ae-contact')).toHaveAttribute(
          'href',
          `mailto:${demoAccount('accountExecutive').email}`,
        );
      }

      await expect(page.getByTestId('user-menu')).toContainText(account.email);
      await openUserMenu(page);
      await expect(page.getByTestId('menu-about')).toBeVisible();
      await expect(page.getByTestId('menu-logout')).toBeVisible();
      // My projects only for a user with several accounts: among the demo accounts, the account executive.
      if (role === 'accountExecutive') await expect(page.getByTestId('menu-my-projects')).toBeVisible();
      else await expect(page.getByTestId('menu-my-projects')).toHaveCount(0);
    });
  }

  test('the Users link leads the admin to the users page', async ({ page }) => {
    await signInThroughApi(page, demoAccount('admin'));
    await page.goto('/en');
    await page.getByTestId('nav-users').click();
    await expect(page).toHaveURL(/\/en\/users$/);
    await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();
    // The demo accounts are listed.
    await expect(page.getByText(demoAccount('productManager').email, { exact: true })).toBeVisible();
  });
});
