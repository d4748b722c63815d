import { expect, test } from './fixtures';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';

const NOT_FOUND = 'The page you are looking for does not exist.';

test('an unknown path shows the 404 page, whose link leads a visitor home (the login page)', async ({ page }) => {
  await page.goto('/en/this-does-not-exist');
  await expect(page.getByText(NOT_FOUND)).toBeVisible();
  const home = page.getByRole('link', { name: 'Back to home' });
  await expect(home).toHaveAttribute('href', '/en');
  await home.click();
  // Home needs a session: a visitor is sent to sign in.
  await expect(page).toHaveURL(/\/en\/login$/);
});

test('an unknown path without a locale gets one, then shows the 404 page', async ({ page }) => {
  await page.goto('/this-does-not-exist');
  await expect(page).toHaveURL(/\/en\/this-does-not-exist$/);
  await expect(page.getByText(NOT_FOUND)).toBeVisible();
});

test('a signed-in user on an unknown path keeps the top bar and goes home by the link', async ({ page }) => {
  const account = demoAccount('productManager');
  await signInThroughApi(page, account);
  await page.goto('/en/this-does-not-exist');
  await expect(page.getByText(NOT_FOUND)).toBeVisible();
  await expect(page.getByTestId('nav-brand')).toBeVisible();
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${account.fullName}` })).toBeVisible();
});
