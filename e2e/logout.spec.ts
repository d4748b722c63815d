import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';
import { openUserMenu } from './helpers/ui';

const admin = demoAccount('admin');

/** After sign-out: the signed-out page under the public header, and no trace of the user's top bar. */
async function expectSignedOut(page: Page): Promise<void> {
  await expect(page.getByText('You are signed out.', { exact: true })).toBeVisible();
  await expect(page.getByTestId('user-menu')).toHaveCount(0);
  await expect(page.getByTestId('notification-centre')).toHaveCount(0);
  for (const link of ['nav-customers', 'nav-products', 'nav-users'])
    await expect(page.getByTestId(link)).toHaveCount(0);
  await expect(page.getByText(admin.email)).toHaveCount(0);
  // The public header: the brand leads to login, and the language switch is offered.
  await expect(page.getByTestId('nav-brand')).toHaveAttribute('href', '/en/login');
  await expect(page.getByTestId('language-switch')).toBeVisible();
  // The session is over on the server too.
  expect((await page.request.get('/api/auth/me')).status()).toBe(401);
}

test('logging out from the user menu shows the public header', async ({ page }) => {
  await signInThroughApi(page, admin);
  await page.goto('/en/users');
  await expect(page.getByTestId('nav-users')).toBeVisible();
  await openUserMenu(page);
  await page.getByTestId('menu-logout').click();
  await expect(page).toHaveURL(/\/en\/logout$/);
  await expectSignedOut(page);
});

test('opening /en/logout signs out and shows the public header', async ({ page }) => {
  await signInThroughApi(page, admin);
  await page.goto('/en');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await page.goto('/en/logout');
  await expectSignedOut(page);
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
});
