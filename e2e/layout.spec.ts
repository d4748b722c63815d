import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueEmail } from './helpers/api';
import { resize, setPreferredLocale, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';
import { cutButtonLabels } from './helpers/ui';

test.use({ viewport: { width: 1280, height: 800 } });

/** Presses Tab until `target` has the focus (a handful of presses at most). */
async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let step = 0; step < 15; step++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error('not reached by Tab');
}

/**
 * The focused element's ring (outline plus its offset) and the ancestors that cut it: any box that
 * hides or scrolls its overflow and does not hold the whole ring.
 */
function focusRingClippers(target: Locator) {
  return target.evaluate((element) => {
    const style = getComputedStyle(element);
    const ring = Number.parseFloat(style.outlineWidth) + Math.max(0, Number.parseFloat(style.outlineOffset));
    const rect = element.getBoundingClientRect();
    const clippers: string[] = [];
    for (let box = element.parentElement; box; box = box.parentElement) {
      const boxStyle = getComputedStyle(box);
      if (boxStyle.overflowX === 'visible' && boxStyle.overflowY === 'visible') continue;
      if (box === document.documentElement || box === document.body) continue;
      const area = box.getBoundingClientRect();
      const cut =
        rect.left - ring < area.left ||
        rect.right + ring > area.right ||
        rect.top - ring < area.top ||
        rect.bottom + ring > area.bottom;
      if (cut) clippers.push(`<${box.tagName.toLowerCase()} class="${box.className}">`);
    }
    return { ring, outlineStyle: style.outlineStyle, clippers };
  });
}

test('the top-bar links show their whole focus ring, and the current link is marked', async ({ page }) => {
  await signInThroughApi(page, demoAccount('admin'));
  await page.goto('/en/customers');
  const customers = page.getByTestId('nav-customers');
  await expect(customers).toBeVisible();

  // The customers page may still be settling when the first Tab lands (its list loads and takes the
  // focus order's place); the whole step is tried again until it holds, within the usual timeout.
  await expect(page.getByTestId('customers-count')).toBeVisible();
  for (const id of ['nav-brand', 'nav-customers', 'nav-users']) {
    const link = page.getByTestId(id);
    await expect(async () => {
      await tabTo(page, link);
      const focus = await focusRingClippers(link);
      expect(focus.outlineStyle, `${id} draws an outline`).not.toBe('none');
      expect(focus.ring, `${id} ring width`).toBeGreaterThan(0);
      expect(focus.clippers, `boxes cutting the focus ring of ${id}`).toEqual([]);
    }).toPass();
  }

  // The current page's link: aria-current and a look of its own.
  await expect(customers).toHaveAttribute('aria-current', 'page');
  const products = page.getByTestId('nav-products');
  await expect(products).not.toHaveAttribute('aria-current', /.*/);
  const look = (link: Locator) =>
    link.evaluate((element) => {
      const style = getComputedStyle(element);
      return `${style.backgroundColor} ${style.textDecorationLine}`;
    });
  await page.mouse.move(0, 700);
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  expect(await look(customers)).not.toBe(await look(products));
  await expect(customers).toHaveCSS('text-decoration-line', 'underline');
});

test('a success toast sits at the bottom right, clear of the top bar and of the page title', async ({ page }) => {
  await signInThroughApi(page, demoAccount('admin'));
  await page.goto('/en/users');
  await expect(page.getByTestId('users-table')).toBeVisible();
  await page.getByTestId('users-add').click();
  const modal = page.getByRole('dialog', { name: 'Add a user' });
  const email = uniqueEmail('toast');
  await modal.getByLabel('Full name', { exact: true }).fill('Toast Reader');
  await modal.getByLabel('Email', { exact: true }).fill(email);
  await modal.getByRole('button', { name: 'Save', exact: true }).click();
  const toast = page.getByTestId('notification-success').filter({ hasText: email });
  await expect(toast).toBeVisible();
  await expect(modal).toBeHidden();

  // decision 021: at the bottom right, at most 420 px wide, over neither the bar nor the title
  const toastBox = (await toast.boundingBox())!;
  const viewport = page.viewportSize()!;
  const header = (await page.locator('header').first().boundingBox())!;
  const title = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
  expect(toastBox.y, 'below the top bar').toBeGreaterThanOrEqual(header.y + header.height);
  expect(toastBox.y, 'below the page title').toBeGreaterThanOrEqual(title.y + title.height);
  expect(toastBox.width).toBeLessThanOrEqual(420);
  expect(toastBox.x + toastBox.width, 'at the right').toBeGreaterThan(viewport.width - 80);
  expect(toastBox.y + toastBox.height, 'at the bottom').toBeGreaterThan(viewport.height - 120);
});

test('the portal has its own favicon and shows its mark in the header', async ({ page }) => {
  await page.goto('/en/login');
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBe('/favicon.svg');
  const icon = await page.request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  expect(await icon.text()).toContain('<svg');
  await expect(page.getByTestId('nav-brand').getByTestId('logo-mark')).toBeVisible();
  await expect(page.getByTestId('nav-brand')).toHaveAccessibleName('Graph Portal');
});

test("no button's label is cut: the versions' Copy buttons and commands, the settings' security, en and fr, 1280 and 390 px", async ({
  page,
}) => {
  await signInThroughApi(page, demoAccount('technicalContact'));
  const cut: string[] = [];
  const atEachWidth = async (what: string) => {
    for (const viewport of VIEWPORTS) {
      await resize(page, viewport);
      cut.push(...(await cutButtonLabels(page)).map((button) => `${what} at ${viewport.name}: ${button}`));
    }
  };
  try {
    for (const locale of ['en', 'fr'] as const) {
      await setPreferredLocale(page, locale);
      await resize(page, VIEWPORTS[0]);
      await page.goto(`/${locale}/select-account`);
      await expect(page).toHaveURL(/\/accounts\/\d+/);
      const section = page.getByTestId('versions-section');
      const card = section.getByTestId('version-card').first();
      // a file's checksum and commands, the licence's secret and feed, each with its Copy button
      await card.getByTestId('artifact-commands-toggle').first().click();
      await expect(card.getByTestId('artifact-command-copy').first()).toBeVisible();
      await section.getByTestId('script-reveal').click();
      await expect(section.getByTestId('script-feed-copy')).toBeVisible();
      await expect(card.getByTestId('artifact-sha256-copy').first()).toBeVisible();
      await atEachWidth(`${locale} versions`);
      await page.goto(`/${locale}/settings`);
      await expect(page.getByTestId('add-totp')).toBeVisible();
      await atEachWidth(`${locale} settings`);
    }
  } finally {
    await setPreferredLocale(page, 'en');
  }
  expect(cut, 'buttons whose label is cut').toEqual([]);
});
