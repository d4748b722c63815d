import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { CHART_SERIES } from '../client/pages/analytics/series';
import type { DownloadAnalytics } from '../common/api/analytics';
import { addDays, utcToday } from '../common/licence-status';
import type { Locale } from '../common/roles';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink } from './helpers/api';
import { expectNoViolations, resize, scan, signInThroughApi, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { pageWidth } from './helpers/session';
import { textsOf } from './helpers/texts';

/** A product manager of the journey's own, speaking `locale`. */
async function productManager(locale: Locale) {
  const admin = await apiSession(demoAccount('admin'));
  try {
    const { user, welcomeLink } = await createStaffUser(admin, {
      label: `analytics-pm-${locale}`,
      type: 'productManager',
      fullname: `Paula Analytics ${locale.toUpperCase()}`,
      preferredLocale: locale,
    });
    const password = newPassword();
    await setPasswordFromLink(welcomeLink, password);
    return { email: user.email, password };
  } finally {
    await admin.dispose();
  }
}

async function analyticsOf(page: Page, query: string): Promise<DownloadAnalytics> {
  const answer = await page.request.get(`/api/analytics/downloads${query}`);
  expect(answer.status()).toBe(200);
  return (await answer.json()) as DownloadAnalytics;
}

for (const locale of ['en', 'fr'] as const) {
  test(`a product manager reads the download analytics, filters a range and exports a table (${locale})`, async ({
    page,
  }) => {
    const t = await textsOf(locale);
    await signInThroughApi(page, await productManager(locale));
    // from the staff home's shortcuts
    await page.goto(`/${locale}`);
    await page.getByTestId('home-shortcut-analytics').click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/analytics$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('analytics.title'));

    // the demo's downloads of the last 90 days, as the API counts them
    const all = await analyticsOf(page, '');
    expect(all.total).toBeGreaterThan(20);
    await expect(page.getByTestId('analytics-total')).toHaveText(
      t('analytics.total', { count: all.total, from: all.from, to: all.to }),
    );
    const top = page.getByTestId('analytics-top-customers');
    await expect(top.getByTestId('analytics-top-customer')).toHaveCount(all.topCustomers.length);
    await expect(top.getByTestId('analytics-top-customer').first()).toContainText(all.topCustomers[0].customerName);
    await expect(page.getByTestId('analytics-over-time').getByTestId('analytics-chart')).toBeVisible();
    // the charts drawn from the same figures: a line per product (the smallest summed as "other"
    // beyond six), a bar per top customer
    const products = all.breakdowns.product.series.length;
    await expect(page.getByTestId('analytics-over-time').locator('path.ct-line')).toHaveCount(
      products > CHART_SERIES ? CHART_SERIES + 1 : products,
    );
    await expect(top.locator('.ct-bar')).toHaveCount(all.topCustomers.length);

    // the last 30 days only
    const from = addDays(utcToday(), -29);
    await page.getByTestId('analytics-from').fill(from);
    const recent = await analyticsOf(page, `?from=${from}&to=${utcToday()}`);
    await expect(page.getByTestId('analytics-total')).toHaveText(
      t('analytics.total', { count: recent.total, from, to: utcToday() }),
    );
    expect(recent.total).toBeLessThan(all.total);

    // the top customers as CSV, read back
    const downloading = page.waitForEvent('download');
    await top
      .getByRole('button', { name: t('analytics.exportLabel', { figure: t('analytics.topCustomers.title') }) })
      .click();
    const file = await downloading;
    expect(file.suggestedFilename()).toBe(`downloads-top-customers-${from}-${utcToday()}.csv`);
    const csv = fs.readFileSync((await file.path())!, 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(`${t('analytics.columns.customer')},${t('analytics.columns.downloads')}`);
    expect(lines.slice(1)).toEqual(recent.topCustomers.map((c) => `${c.customerName},${c.downloads}`));

    for (const viewport of VIEWPORTS) {
      await resize(page, viewport);
      expectNoViolations(await scan(page, `analytics ${locale} ${viewport.name}`));
      const { scrollWidth, innerWidth } = await pageWidth(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    }

    // the whole range again, on a phone: the table of days comes a page at a time, so the page stays
    // a few screens tall (it was 20,000 px and more with a row per day as cards)
    await page.getByTestId('analytics-from').fill(all.from);
    await expect(page.getByTestId('analytics-total')).toHaveText(
      t('analytics.total', { count: all.total, from: all.from, to: all.to }),
    );
    const overTime = page.getByTestId('analytics-over-time');
    await expect(overTime.getByTestId('analytics-over-time-row')).toHaveCount(10);
    await overTime.getByRole('button', { name: t('pagination.next') }).click();
    await expect(page).toHaveURL(/[?&]days=2(&|$)/);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    test.info().annotations.push({ type: 'height at 390 px', description: String(height) });
    expect(height, 'the analytics page at 390 px').toBeLessThan(8 * VIEWPORTS[1].height);

    // the product page links its analytics, filtered on it
    await page.goto(`/${locale}/products/${all.products[0].key}`);
    await page.getByTestId('product-analytics').click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/analytics\\?product=${all.products[0].key}$`));
    await expect(page.getByTestId('analytics-product')).toHaveValue(all.products[0].key);

    // and so does a customer's page, beside its licences' latest downloads
    await page.goto(`/${locale}/accounts/${all.topCustomers[0].customerId}`);
    const link = page.getByTestId('licences-section').getByRole('link', { name: t('catalogue.analytics') });
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/analytics$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(t('analytics.title'));
  });
}

test('the analytics are not offered to a support engineer', async ({ page }) => {
  await signInThroughApi(page, demoAccount('supportEngineer'));
  await page.goto('/en');
  await expect(page.getByTestId('home-shortcut-customers')).toBeVisible();
  await expect(page.getByTestId('home-shortcut-analytics')).toHaveCount(0);
  expect((await page.request.get('/api/analytics/downloads')).status()).toBe(403);
});
