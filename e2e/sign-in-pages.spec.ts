import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * The sign-in pages drawn at build time (decisions 024, 054): hydrated without React refusing their
 * markup whatever the address carries, and their fields with a focus ring one can see.
 */

/** Every uncaught error and console error of the page from now on. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  return errors;
}

/** React has taken the page over (its root holds React's container), and its first calls are answered. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const root = document.getElementById('root');
    return root !== null && Object.keys(root).some((key) => key.startsWith('__reactContainer'));
  });
  await page.waitForLoadState('networkidle');
}

/** The page is live after hydration: an empty sign-in is refused on the field, by the page's script. */
async function answersEmptySignIn(page: Page) {
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.locator('input[name="email"]')).toHaveAttribute('data-error', 'true');
}

test.describe('the login page with parameters', () => {
  // ?sso= changes the first render where a support desk may be set up (the settings not arrived yet)
  for (const search of ['?sso=%2Fdesk%2Ftickets', '?redirect=%2Fen%2Fproducts', '?sso=x&redirect=%2Fen%2Fusers']) {
    test(`hydrates ${search} without an error`, async ({ page }) => {
      const errors = collectErrors(page);
      await page.goto(`/en/login${search}`);
      await hydrated(page);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await answersEmptySignIn(page);
      expect(errors).toEqual([]);
    });
  }

  test('hydrates without an error when an earlier ?sso= is stored', async ({ page }) => {
    await page.goto('/en/login?sso=%2Fdesk');
    await hydrated(page);
    const errors = collectErrors(page);
    await page.goto('/en/login?redirect=%2Fen%2Fproducts');
    await hydrated(page);
    await answersEmptySignIn(page);
    expect(errors).toEqual([]);
  });
});

test('keeps the fields it drew, and what was typed into them, when the page’s code comes late', async ({ page }) => {
  // The page's own code held back while its texts arrive: had React begun before it came, the
  // router's first update (the address's query) would make it draw the form again in new fields.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/LoginPage-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const texts = page.waitForResponse(/\/assets\/en-[^/]+\.js$/);
  const errors = collectErrors(page);
  await page.goto('/en/login?redirect=%2Fen%2Fproducts', { waitUntil: 'domcontentloaded' });
  const email = page.locator('input[name="email"]');
  const drawn = await email.elementHandle();
  await texts;
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await email.fill('early@example.com');
  release();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
  await hydrated(page);
  await email.press('End');
  await email.pressSequentially('.org');
  await expect(email).toHaveValue('early@example.com.org');
  expect(
    await drawn!.evaluate((field) => field.isConnected && field === document.querySelector('input[name="email"]')),
  ).toBe(true);
  expect(errors).toEqual([]);
});

/** The focused field's outline, as the browser draws it. */
async function focusRing(page: Page, selector: string) {
  await page.locator(selector).focus();
  return page.locator(selector).evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      focused: document.activeElement === element,
      outlineStyle: style.outlineStyle,
      outlineWidth: Number.parseFloat(style.outlineWidth),
      outlineColor: style.outlineColor,
      borderColor: style.borderTopColor,
    };
  });
}

test.describe('focus on the sign-in pages’ fields', () => {
  const pages = [
    { path: '/en/login', field: 'input[name="email"]', submit: 'Sign in' },
    { path: '/fr/password-lost', field: 'input[name="email"]', submit: null },
    { path: '/en/sign-up', field: 'input[autocomplete="given-name"]', submit: 'Sign up' },
  ];
  for (const { path, field, submit } of pages) {
    test(`${path}: a 2 px ring, on a valid and an invalid field`, async ({ page }) => {
      await page.goto(path);
      await hydrated(page);
      const valid = await focusRing(page, field);
      expect(valid.focused).toBe(true);
      expect(valid.outlineStyle).toBe('solid');
      expect(valid.outlineWidth).toBeGreaterThanOrEqual(2);

      // submitted empty (or, where the button waits for a valid form, left with a wrong address): the
      // field is invalid, its border red, and its focus still shows
      if (submit) await page.getByRole('button', { name: submit, exact: true }).click();
      else {
        await page.locator(field).fill('not-an-address');
        await page.locator(field).blur();
      }
      await expect(page.locator(field)).toHaveAttribute('data-error', 'true');
      await page.locator('body').click({ position: { x: 1, y: 1 } });
      const invalid = await focusRing(page, field);
      expect(invalid.focused).toBe(true);
      expect(invalid.outlineStyle).toBe('solid');
      expect(invalid.outlineWidth).toBeGreaterThanOrEqual(2);
      // the ring is not the red of the invalid border: it shows against it
      expect(invalid.outlineColor).not.toBe(invalid.borderColor);
    });
  }
});
