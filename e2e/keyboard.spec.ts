import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { isLoginCall } from './helpers/auth';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';

// Focus moves with the dialogs' and menus' transitions as most users see them, not only the reduced
// motion the other journeys use (playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

const MAX_TABS = 15;

/** What has the focus, in words, for failure messages. */
function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '(the page itself)';
    const id = element.getAttribute('data-testid');
    const text = (element.textContent ?? '').trim().slice(0, 40);
    return `<${element.tagName.toLowerCase()}${id ? ` data-testid="${id}"` : ''}> ${text}`;
  });
}

/**
 * Presses Tab until `target` has the focus. The exact order of what comes before is the layout's
 * business; that the target is reached by Tab in a few steps is the keyboard user's.
 */
async function tabTo(page: Page, target: Locator): Promise<void> {
  const visited: string[] = [];
  for (let step = 0; step <= MAX_TABS; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    visited.push(await focusedElement(page));
    await page.keyboard.press('Tab');
  }
  throw new Error(`Not reached within ${MAX_TABS} presses of Tab; the focus went through:\n  ${visited.join('\n  ')}`);
}

/** Whether the element draws a focus indicator: an outline or a box shadow. */
function focusIndicator(target: Locator): Promise<{ outline: string; boxShadow: string; visible: boolean }> {
  return target.evaluate((element) => {
    const style = getComputedStyle(element);
    // The computed shorthand is never the bare word "none" (it reads "rgb(0, 0, 0) none 3px"): look at
    // the style and the width.
    const outlined = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const shadowed = style.boxShadow !== 'none';
    return { outline: style.outline, boxShadow: style.boxShadow, visible: outlined || shadowed };
  });
}

async function expectFocusVisible(target: Locator, what: string): Promise<void> {
  await expect(target).toBeFocused();
  const indicator = await focusIndicator(target);
  expect(indicator.visible, `focus indicator of ${what}: ${JSON.stringify(indicator)}`).toBe(true);
}

test('signing in and reaching the settings with the keyboard alone', async ({ page }) => {
  const account = demoAccount('productManager');
  await page.goto('/en/login');
  const email = page.getByLabel('Email', { exact: true });
  const password = page.getByLabel('Password', { exact: true });
  const submit = page.getByRole('button', { name: 'Sign in', exact: true });
  // the page rendered at build time enables its button once its script has taken the form over
  await expect(submit).toBeEnabled();

  await tabTo(page, email);
  await page.keyboard.type(account.email);
  await page.keyboard.press('Tab');
  await expect(password).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press('Tab');
  await expectFocusVisible(submit, 'the sign-in button');
  await expect(email).toHaveValue(account.email);

  const login = page.waitForResponse(isLoginCall);
  await page.keyboard.press('Enter');
  expect((await login).status(), `sign-in of ${account.email}`).toBe(200);
  await expect(page).toHaveURL(/\/en$/);
  // after sign-in the focus is on the page's heading, not the body; the top bar comes just before it
  const welcome = page.getByRole('heading', { level: 1, name: `Welcome, ${account.fullName}` });
  await expect(welcome).toBeFocused();

  const userMenu = page.getByTestId('user-menu');
  const settings = page.getByTestId('menu-settings');
  await page.keyboard.press('Shift+Tab');
  await expectFocusVisible(userMenu, 'the user menu button');

  await page.keyboard.press('Enter');
  await expect(settings).toBeVisible();
  await expect(userMenu).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
  await expect(userMenu).toHaveAttribute('aria-expanded', 'false');
  // Closing gives the focus back to the button, so the keyboard user carries on from where they were.
  await expect(userMenu).toBeFocused();

  // Opening puts the focus on the first item (the WAI-ARIA menu button pattern).
  await page.keyboard.press('Enter');
  await expect(settings).toBeVisible();
  await expectFocusVisible(settings, 'the Settings item, first in the menu');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/en\/settings$/);
  // a page change: the focus is on the new page's heading
  await expect(page.getByRole('heading', { level: 1, name: 'Settings', exact: true })).toBeFocused();
  await expect(settings).toBeHidden();
  // and again from a link of the top bar, followed from the keyboard
  await page.keyboard.press('Shift+Tab');
  await expect(userMenu).toBeFocused();
  const products = page.getByTestId('nav-products');
  await products.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/en\/products$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
});

/** Relative luminance of a CSS rgb() colour, per WCAG. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((part) => {
    const channel = Number(part) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.4.7 and 1.4.11: an outline of at least 2 px, 3:1 against the white page around it. */
async function expectFocusRing(page: Page, target: Locator, what: string): Promise<void> {
  // A key pressed first: the focus that follows is the keyboard's (:focus-visible), not a click's.
  await page.keyboard.press('Shift');
  await target.focus();
  await expect(target).toBeFocused();
  const ring = await target.evaluate((element) => {
    const style = getComputedStyle(element);
    return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth), color: style.outlineColor };
  });
  expect(ring.style, `focus ring of ${what}: ${JSON.stringify(ring)}`).not.toBe('none');
  expect(ring.width, `focus ring of ${what}`).toBeGreaterThanOrEqual(2);
  const contrast = (1 + 0.05) / (luminance(ring.color) + 0.05);
  expect(contrast, `focus ring of ${what} against white: ${ring.color}`).toBeGreaterThanOrEqual(3);
}

test('cards, shortcuts, text fields and selects show a focus ring, not only a border colour', async ({ page }) => {
  const admin = demoAccount('admin');
  await signInThroughApi(page, admin);
  await page.goto('/en');
  await expect(page.getByRole('heading', { name: `Welcome, ${admin.fullName}` })).toBeVisible();

  await expectFocusRing(page, page.getByTestId('home-shortcut-customers'), 'a home shortcut');

  await page.getByTestId('nav-customers').click();
  await expect(page.getByTestId('customer-card').first()).toBeVisible();
  await expectFocusRing(page, page.getByTestId('customer-card').first(), 'a customer card');
  await expectFocusRing(page, page.getByLabel('Search customers', { exact: true }), 'a text field');

  await page.getByTestId('nav-users').click();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expectFocusRing(page, dialog.getByLabel('Full name', { exact: true }), 'a text field in a dialog');
  await expectFocusRing(page, dialog.getByRole('combobox', { name: 'Type' }), 'a select');
});
