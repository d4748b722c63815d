import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';

/** The API paths the page asked for, from now on. */
function apiPathsOf(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) paths.push(pathname);
  });
  return paths;
}

test.describe("the customer page as a client's home", () => {
  test('a technical contact lands on their customer, without the team, its log or the staff tools', async ({
    page,
  }) => {
    const asked = apiPathsOf(page);
    await signInThroughApi(page, demoAccount('technicalContact'));
    // the portal's home sends each to their customer, or to the picker when they have several
    await page.goto('/en');
    await expect(page).toHaveURL(/\/en\/accounts\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: DEMO_CUSTOMER_NAME })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Resources and support' })).toBeVisible();
    await expect(page.getByTestId('footer-account-executive')).toBeVisible();

    await expect(page.getByRole('heading', { level: 2, name: 'Members' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Recent actions' })).toHaveCount(0);
    await expect(page.getByTestId('account-telemetry')).toHaveCount(0);
    await expect(page.getByTestId('account-sync')).toHaveCount(0);
    await expect(page.getByTestId('footer-billing')).toHaveCount(0);
    // Spec 4: members, logs and invitations are not even asked for.
    expect(asked.filter((path) => /\/(members|logs|invitations)\b/.test(path))).toEqual([]);
  });

  test('a project manager lands on their customer, with the team, its log and the billing contact', async ({
    page,
  }) => {
    await signInThroughApi(page, demoAccount('businessOwner'));
    // the portal's home sends each to their customer, or to the picker when they have several
    await page.goto('/en');
    await expect(page).toHaveURL(/\/en\/accounts\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: DEMO_CUSTOMER_NAME })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Members' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Recent actions' })).toBeVisible();
    await expect(page.getByTestId('footer-billing')).toHaveText('Billing contact: billing@acme-analytics.example');
    const support = page.getByTestId('resources-support');
    await expect(support).toHaveAttribute('target', '_blank');
    await expect(support).toHaveAttribute('rel', /noopener/);
  });
});

test('an account executive finds a customer with the picker’s search, opens it and tries the sync', async ({
  page,
}) => {
  await signInThroughApi(page, demoAccount('accountExecutive'));
  // the portal's home sends each to their customer, or to the picker when they have several
  await page.goto('/en');
  await expect(page).toHaveURL(/\/en\/select-account$/);
  const entries = page.getByTestId('account-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText('Account executive');

  await page.getByLabel('Filter by name', { exact: true }).fill('glob');
  await expect(entries).toHaveCount(1);
  await expect(entries).toHaveAccessibleName(/^Globex Logistics/);
  await entries.click();

  await expect(page).toHaveURL(/\/en\/accounts\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Globex Logistics' })).toBeVisible();
  const telemetry = page.getByTestId('account-telemetry');
  await expect(telemetry).toHaveAttribute('href', 'https://telemetry.example.com/customers/GBXT4M8T2W');
  await expect(telemetry).toHaveAttribute('target', '_blank');

  await page.getByRole('button', { name: 'Sync with SalesForce' }).click();
  // the journeys' CRM does not answer (e2e/helpers/run-state.ts): the spec's message with its cause
  await expect(page.getByTestId('notification-error')).toContainText(
    /The customer could not be synced with SalesForce: .*(ECONNREFUSED|fetch failed)/,
  );
});
