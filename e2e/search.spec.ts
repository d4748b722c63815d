import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { Locale } from '../common/roles';
import { resize, setPreferredLocale, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { pageWidth, signInThroughApi } from './helpers/session';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';

/** Part of the demo customer's name, as someone who remembers only a piece of it would type it. */
const TYPED = DEMO_CUSTOMER_NAME.slice(2, 9).toLowerCase();

/** The first result is the active option, named by the field and highlighted, and the only one. */
async function expectFirstActive(page: Page) {
  const options = page.getByRole('option');
  const first = options.first();
  await expect(page.getByRole('combobox')).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('option', { selected: true })).toHaveCount(1);
  const look = (index: number) => options.nth(index).evaluate((element) => getComputedStyle(element).backgroundColor);
  if ((await options.count()) > 1) expect(await look(0)).not.toBe(await look(1));
  expect(await look(0)).not.toBe('rgba(0, 0, 0, 0)');
}

/**
 * The staff's search box (docs/decisions/079-staff-search.md): opened from the keyboard on any page,
 * results as the user types, arrow keys to the one wanted, Enter to open its page.
 */
async function findCustomerFromKeyboard(page: Page, locale: Locale, open: string) {
  await page.goto(`/${locale}/products`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press(open);
  const input = page.getByRole('combobox');
  await expect(input).toBeFocused();
  await page.keyboard.type(TYPED);
  const customers = page.getByTestId('search-group-customer');
  const wanted = customers.getByRole('option', { name: new RegExp(DEMO_CUSTOMER_NAME) });
  await expect(wanted).toBeVisible();
  // The first result is active, and shows it; an arrow key moves on; a new search starts on its first again.
  await expectFirstActive(page);
  await page.keyboard.press('ArrowDown');
  // the second when there is one, else the first again (the arrows go round)
  const moved = (await page.getByRole('option').count()) > 1 ? 1 : 0;
  await expect(page.getByRole('option').nth(moved)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(TYPED.slice(-1));
  await expect(wanted).toBeVisible();
  await expectFirstActive(page);
  // down until the field names the customer as the active option
  const id = await wanted.getAttribute('id');
  expect(id).toBeTruthy();
  for (let step = 0; step < 20 && (await input.getAttribute('aria-activedescendant')) !== id; step++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(input).toHaveAttribute('aria-activedescendant', id!);
  await expect(wanted).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/${locale}/accounts/\\d+$`));
  await expect(page.getByRole('heading', { level: 1, name: DEMO_CUSTOMER_NAME })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

test.describe('the staff search box', () => {
  test.beforeEach(async ({ page }) => {
    await signInThroughApi(page, demoAccount('admin'));
  });

  test('an admin presses /, types part of a customer name, moves to it with the arrows and opens it with Enter', async ({
    page,
  }) => {
    await findCustomerFromKeyboard(page, 'en', '/');
  });

  test('the same in French, opened with Ctrl+K', async ({ page }) => {
    await setPreferredLocale(page, 'fr');
    try {
      await findCustomerFromKeyboard(page, 'fr', 'Control+k');
    } finally {
      await setPreferredLocale(page, 'en');
    }
  });

  test('the same at 390 px, in a sheet that fills the screen', async ({ page }) => {
    await resize(page, VIEWPORTS[1]);
    await page.goto('/en/products');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.keyboard.press('/');
    await expect(page.getByRole('combobox')).toBeFocused();
    await page.keyboard.type(TYPED);
    await expect(page.getByTestId('search-group-customer').getByRole('option').first()).toBeVisible();
    const sheet = await page.getByRole('dialog').boundingBox();
    expect(sheet?.width).toBe(390);
    const width = await pageWidth(page);
    expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await page.getByTestId('search-open').click();
    await expect(page.getByRole('combobox')).toBeFocused();
    await page.getByRole('button', { name: 'Close the search' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await findCustomerFromKeyboard(page, 'en', '/');
  });

  test('the keys do not open it while typing in a field, and Escape closes it', async ({ page }) => {
    await page.goto('/en/customers');
    const filter = page.getByLabel('Search customers');
    await filter.click();
    await page.keyboard.type('a/b');
    await expect(filter).toHaveValue('a/b');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await filter.blur();
    await page.keyboard.press('/');
    await expect(page.getByRole('combobox')).toBeFocused();
    await page.keyboard.type('x');
    await expect(page.getByTestId('search-status')).toContainText('at least 2 characters');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  });

  test('a client has no search box', async ({ page }) => {
    await signInThroughApi(page, demoAccount('businessOwner'));
    await page.goto('/en');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await page.keyboard.press('/');
    await expect(page.getByTestId('search-open')).toHaveCount(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
