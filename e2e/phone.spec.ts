import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { Role } from '../common/roles';
import { demoAccount } from './helpers/demo';
import { pageWidth, signInThroughApi } from './helpers/session';
import { EXPECTED_TOP_BAR } from './helpers/top-bar';
import { openUserMenu } from './helpers/ui';

const PHONE = { width: 390, height: 844 };
test.use({ viewport: PHONE });

/** Nothing on the page reaches past the screen's right edge: no sideways scrolling. */
async function expectNoWiderThanScreen(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await pageWidth(page);
  expect(innerWidth).toBe(PHONE.width);
  expect(scrollWidth, `page width on ${where}`).toBeLessThanOrEqual(PHONE.width);
}

/** A project manager and a technical contact have the contact button; an admin has three links. */
const PHONE_ROLES: readonly Role[] = ['admin', 'businessOwner', 'technicalContact'];

for (const role of PHONE_ROLES) {
  test(`${role}: every link and menu entry is reachable at 390 px`, async ({ page }) => {
    const account = demoAccount(role);
    await signInThroughApi(page, account);
    await page.goto('/en');
    await expect(page).toHaveURL(role === 'admin' ? /\/en$/ : /\/en\/accounts\/\d+$/);
    await expectNoWiderThanScreen(page, 'the landing page');

    // Always on screen, whole: the brand, the notification centre and the user menu.
    for (const id of ['nav-brand', 'notification-centre', 'user-menu']) {
      await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
    }
    await openUserMenu(page);
    for (const id of ['menu-settings', 'menu-about', 'menu-logout']) {
      await expect(page.getByTestId(id), id).toBeInViewport({ ratio: 1 });
    }
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('menu-settings')).toBeHidden();

    // The links and the account executive contact are in the burger menu.
    const links = EXPECTED_TOP_BAR[role].filter((link) => link !== 'nav-brand');
    for (const link of links) await expect(page.getByTestId(link), `${link} outside the menu`).toHaveCount(0);
    const burger = page.getByRole('button', { name: 'Menu', exact: true });
    await expect(burger).toHaveAttribute('aria-expanded', 'false');
    await burger.click();
    await expect(burger).toHaveAttribute('aria-expanded', 'true');
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    for (const link of links) await expect(drawer.getByTestId(link), link).toBeInViewport({ ratio: 1 });
    if (links.includes('nav-ae-contact')) {
      await expect(drawer.getByTestId('nav-ae-contact')).toHaveAttribute(
        'href',
        `mailto:${demoAccount('accountExecutive').email}`,
      );
    }
    await expectNoWiderThanScreen(page, 'the open menu');
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(burger).toHaveAttribute('aria-expanded', 'false');

    // Following a link closes the menu and marks the link as the current page.
    const target = role === 'admin' ? 'nav-users' : 'nav-home';
    await burger.click();
    await drawer.getByTestId(target).click();
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(role === 'admin' ? /\/en\/users$/ : /\/en\/accounts\/\d+$/);
    await burger.click();
    await expect(drawer.getByTestId(target)).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Escape');
    await expectNoWiderThanScreen(page, `the page of ${target}`);
  });
}

test('the users table shows its rows as cards at 390 px and the modal keeps Save in view', async ({ page }) => {
  await signInThroughApi(page, demoAccount('admin'));
  await page.goto('/en/users');
  const table = page.getByTestId('users-table');
  await expect(table).toBeVisible();
  await expectNoWiderThanScreen(page, 'the users page');

  // No sideways scrolling: each row is a card as wide as its box, its edit button in view.
  const scroller = page.getByTestId('table-scroller');
  const box = await scroller.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(box.scroll).toBeLessThanOrEqual(box.client);
  await expect(scroller).toHaveAttribute('aria-label', 'Users');
  await expect(scroller).toHaveAttribute('data-layout', 'cards');
  await expect(table.getByTestId('user-edit').first()).toBeInViewport({ ratio: 1 });
  // Its badges are whole, not cut short.
  const badge = table.getByText('Enabled', { exact: true }).first();
  const badgeText = await badge.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(badgeText.scroll).toBeLessThanOrEqual(badgeText.client);

  await page.getByTestId('users-add').click();
  const modal = page.getByRole('dialog', { name: 'Add a user' });
  await expect(modal).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Save', exact: true })).toBeInViewport({ ratio: 1 });
  await expect(modal.getByRole('button', { name: 'Cancel', exact: true })).toBeInViewport({ ratio: 1 });
  const modalBox = await modal.boundingBox();
  expect(modalBox!.x).toBeGreaterThanOrEqual(0);
  expect(modalBox!.x + modalBox!.width).toBeLessThanOrEqual(PHONE.width);
  await expectNoWiderThanScreen(page, 'the open modal');
});

test('a legal document is read in the page itself, not in a small inner scroller', async ({ page }) => {
  await page.goto('/en/terms-and-conditions');
  const document = page.getByTestId('legal-document');
  await expect(document).toBeVisible();
  await expectNoWiderThanScreen(page, 'the legal page');
  const height = (await document.boundingBox())!.height;
  expect(height).toBeGreaterThan(320);
  // Nothing inside scrolls on its own: the page's scroll reads the whole text.
  const innerScrollers = await page.getByTestId('legal-page').evaluate((root) =>
    [root, ...root.querySelectorAll('*')]
      .filter((element) => {
        const style = getComputedStyle(element);
        return /(auto|scroll)/.test(style.overflowY) && element.scrollHeight > element.clientHeight + 1;
      })
      .map((element) => element.className),
  );
  expect(innerScrollers).toEqual([]);
});

test.describe('between phone and desktop', () => {
  for (const role of ['admin', 'technicalContact'] as const) {
    test(`${role}: the top bar fits every width from 390 to 1280 px`, async ({ page }) => {
      await signInThroughApi(page, demoAccount(role));
      await page.goto('/en/about');
      await expect(page.getByTestId('user-menu')).toBeVisible();
      for (const width of [390, 600, 768, 900, 991, 992, 1100, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        const { scrollWidth } = await pageWidth(page);
        expect(scrollWidth, `page width at ${width} px`).toBeLessThanOrEqual(width);
        for (const id of ['nav-brand', 'notification-centre', 'user-menu']) {
          await expect(page.getByTestId(id), `${id} at ${width} px`).toBeInViewport({ ratio: 1 });
        }
        // Either the links are in the bar, whole, or the burger offers them.
        const burger = page.getByTestId('nav-burger');
        if ((await burger.count()) === 0) {
          for (const link of EXPECTED_TOP_BAR[role]) {
            await expect(page.getByTestId(link), `${link} at ${width} px`).toBeInViewport({ ratio: 1 });
          }
        } else {
          await expect(burger, `burger at ${width} px`).toBeInViewport({ ratio: 1 });
        }
      }
    });
  }
});
