import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { CustomerList } from '../common/api/customers';
import type { Locale } from '../common/roles';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink } from './helpers/api';
import { demoAccount } from './helpers/demo';
import { pageWidth, signInThroughApi } from './helpers/session';
import { textsOf } from './helpers/texts';

/** The demo product: its versions are the demo's (no journey adds one to it). */
const DEMO_PRODUCT_KEY = 'graph-server';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function acmeId(): Promise<number> {
  const admin = await apiSession(demoAccount('admin'));
  try {
    const answer = await admin.get(`/api/customers?filter=${encodeURIComponent(DEMO_CUSTOMER_NAME)}`);
    return ((await answer.json()) as CustomerList).data.find((c) => c.name === DEMO_CUSTOMER_NAME)!.id;
  } finally {
    await admin.dispose();
  }
}

/**
 * Signs in as an admin who reads the portal in `locale`: the demo admin in English, a new admin of
 * their own in French (the portal speaks the signed-in user's language, whatever the address says).
 */
async function signInAsAdmin(page: Page, locale: Locale): Promise<void> {
  if (locale === 'en') return signInThroughApi(page, demoAccount('admin'));
  const admin = await apiSession(demoAccount('admin'));
  try {
    const { user, welcomeLink } = await createStaffUser(admin, {
      label: `tables-${locale}`,
      type: 'admin',
      fullname: 'Lecteur des tableaux',
      preferredLocale: locale,
    });
    const password = newPassword();
    await setPasswordFromLink(welcomeLink, password);
    await signInThroughApi(page, { email: user.email, password });
  } finally {
    await admin.dispose();
  }
}

/** Every table's box whose content is wider than the box: what a reader would have to scroll sideways. */
function sidewaysScrollers(page: Page) {
  return page
    .getByTestId('table-scroller')
    .evaluateAll((boxes) =>
      boxes
        .filter((box) => box.scrollWidth > box.clientWidth)
        .map((box) => `${box.getAttribute('aria-label')}: ${box.scrollWidth} > ${box.clientWidth}`),
    );
}

/** Nothing on the page, nor in any table's box, is wider than the screen. */
async function expectNothingSideways(page: Page, where: string, width: number): Promise<void> {
  const { scrollWidth } = await pageWidth(page);
  expect(scrollWidth, `page width on ${where}`).toBeLessThanOrEqual(width);
  expect(await sidewaysScrollers(page), `tables scrolling sideways on ${where}`).toEqual([]);
}

/** The element, brought into view by the page's own (vertical) scroll, is whole on the screen, its text too. */
async function expectReachable(target: Locator, what: string): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  await expect(target, what).toBeInViewport({ ratio: 1 });
  const cut = await target.evaluate((element) =>
    [element, ...element.querySelectorAll('*')]
      .filter((part) => part.scrollWidth > part.clientWidth + 1)
      .map((part) => part.textContent),
  );
  expect(cut, `${what}: text cut short`).toEqual([]);
}

for (const locale of ['en', 'fr'] as const satisfies readonly Locale[]) {
  test.describe(`at 390 px (${locale})`, () => {
    test.use({ viewport: PHONE });

    test(`every row of the customer page is a card with its actions in view (${locale})`, async ({ page }) => {
      const t = await textsOf(locale);
      const customerId = await acmeId();
      await signInAsAdmin(page, locale);
      await page.goto(`/${locale}/accounts/${customerId}`);
      const licences = page.getByTestId('licences-table');
      await expect(licences.getByTestId('licence-row').first()).toBeVisible();
      await expect(page.getByTestId('invitation-row').first()).toBeVisible();
      await expect(page.getByTestId('member-row').first()).toBeVisible();
      await expectNothingSideways(page, 'the customer page', PHONE.width);

      // A licence's card: its fields under their names, and every action of the row.
      const licence = licences.getByTestId('licence-row').first();
      await expect(licence.locator('td').first()).toHaveAttribute('data-label', t('licences.columns.id'));
      await expect(licence.locator('td').nth(2)).toHaveAttribute('data-label', t('licences.columns.validUntil'));
      // the licence file, or on an expired licence the reason it has none (decision 094)
      const file = licence.getByTestId('licence-download').or(licence.getByTestId('licence-file-unavailable'));
      await expectReachable(file, 'licence file or why none');
      for (const id of ['licence-copy-key', 'licence-renew']) {
        await expectReachable(licence.getByTestId(id), id);
      }
      const customizable = licences.getByTestId('licence-customize').first();
      if ((await customizable.count()) > 0) await expectReachable(customizable, 'licence-customize');
      await expectReachable(page.getByTestId('member-edit').first(), 'member-edit');
      const invitation = page.getByTestId('invitation-row').first();
      for (const id of ['invitation-resend', 'invitation-copy', 'invitation-cancel']) {
        await expectReachable(invitation.getByTestId(id), id);
      }
    });

    test(`the users table is cards too (${locale})`, async ({ page }) => {
      await signInAsAdmin(page, locale);
      await page.goto(`/${locale}/users`);
      await expect(page.getByTestId('user-row').first()).toBeVisible();
      await expectNothingSideways(page, 'the users page', PHONE.width);
      await expectReachable(page.getByTestId('user-edit').first(), 'user-edit');
    });

    test(`a product's versions and the analytics tables are cards too (${locale})`, async ({ page }) => {
      // the demo product, whose versions no journey changes (others make products of their own,
      // without versions, which may come first in the list)
      await signInAsAdmin(page, locale);
      await page.goto(`/${locale}/products/${DEMO_PRODUCT_KEY}`);
      const version = page.getByTestId('version-row').first();
      await expect(version).toBeVisible();
      await expectNothingSideways(page, 'the product page', PHONE.width);
      await expectReachable(version.getByTestId('version-edit'), 'version-edit');

      await page.goto(`/${locale}/analytics`);
      await expect(page.getByTestId('table-scroller').first()).toBeAttached();
      await expectNothingSideways(page, 'the analytics page', PHONE.width);
    });

    test(`a toast covers neither a modal's header nor the notification centre (${locale})`, async ({ page }) => {
      await expectToastsClear(page, locale);
    });
  });

  test.describe(`at 1280 px (${locale})`, () => {
    test.use({ viewport: DESKTOP });

    test(`the staff licence table fits its card (${locale})`, async ({ page }) => {
      const customerId = await acmeId();
      await signInAsAdmin(page, locale);
      await page.goto(`/${locale}/accounts/${customerId}`);
      await expect(page.getByTestId('licences-table').getByTestId('licence-row').first()).toBeVisible();
      await expect(page.getByTestId('licences-table').getByTestId('licence-renew').first()).toBeVisible();
      await expectNothingSideways(page, 'the customer page', DESKTOP.width);
    });

    test(`a toast covers neither a modal's header nor the notification centre (${locale})`, async ({ page }) => {
      await expectToastsClear(page, locale);
    });
  });
}

const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * A toast (copying a download key) is not over the page's title, and stays visible while the licence
 * modal opens, then while the notification centre opens: it is over neither the modal's header nor
 * the centre's list.
 */
async function expectToastsClear(page: Page, locale: Locale): Promise<void> {
  const t = await textsOf(locale);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const customerId = await acmeId();
  await signInAsAdmin(page, locale);
  await page.goto(`/${locale}/accounts/${customerId}`);
  const licence = page.getByTestId('licences-table').getByTestId('licence-row').first();
  await licence.getByTestId('licence-copy-key').click();
  const toast = page.locator('.mantine-Notifications-root [data-testid^="notification-"]').first();
  await expect(toast).toBeVisible();
  // nor the page's title, just below the bar
  const title = page.getByRole('heading', { level: 1 });
  expect(overlap((await toast.boundingBox())!, (await title.boundingBox())!), 'toast over the page title').toBe(false);

  await licence.getByTestId('licence-renew').click();
  const modal = page.getByRole('dialog');
  await expect(modal).toBeVisible();
  const header = modal.locator('.mantine-Modal-header');
  await expect(header).toBeVisible();
  await expect(toast).toBeVisible();
  // the toast has moved (a transition); wait until it rests
  await expect(async () => {
    expect(overlap((await toast.boundingBox())!, (await header.boundingBox())!), 'toast over the modal header').toBe(
      false,
    );
  }).toPass({ timeout: 3000 });
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();

  // a fresh toast, then the centre
  await licence.getByTestId('licence-copy-key').click();
  await page.getByTestId('notification-centre').click();
  const centre = page.locator('.notification-centre-dropdown');
  await expect(centre).toBeVisible();
  await expect(centre.getByText(t('notificationCentre.title'))).toBeVisible();
  await expect(toast).toBeVisible();
  await expect(async () => {
    expect(overlap((await toast.boundingBox())!, (await centre.boundingBox())!), 'toast over the centre').toBe(false);
  }).toPass({ timeout: 3000 });
}
