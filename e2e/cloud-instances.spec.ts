import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { CustomerList } from '../common/api/customers';
import type { Locale } from '../common/roles';
import { DEMO_PASSWORD } from '../server/seed/demo';
import { expectNoViolations, resize, scan, setPreferredLocale, signInThroughApi, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { pageWidth } from './helpers/session';
import { textsOf } from './helpers/texts';

/**
 * The cloud instances section (docs/instances.md) on the demo's self-service customer, Northwind
 * Labs, whose instance is ready: a support engineer archives and restores it (the journey puts it
 * back as it was), and the customer's project manager sees it Ready with its open link and no logs
 * link, in English and French, at 1280 and 390 px, with nothing for axe to find.
 */

const NORTHWIND = 'Northwind Labs';
const INSTANCE = 'northwind-graph';
const OWNER = { email: 'nina.park@northwind.example', password: DEMO_PASSWORD };

async function openNorthwind(page: Page, locale: Locale = 'en') {
  const answer = await page.request.get(`/api/customers?filter=${encodeURIComponent(NORTHWIND)}`);
  expect(answer.status()).toBe(200);
  const customer = ((await answer.json()) as CustomerList).data.find((c) => c.name === NORTHWIND)!;
  await page.goto(`/${locale}/accounts/${customer.id}`);
  await expect(page.getByRole('heading', { level: 1, name: NORTHWIND })).toBeVisible();
}

const section = (page: Page) => page.getByTestId('instances-section');
const row = (page: Page) => section(page).locator(`[data-testid="instance-row"][data-name="${INSTANCE}"]`);

test('a support engineer archives the instance after a confirmation, then restores it', async ({ page }) => {
  const t = await textsOf('en');
  await signInThroughApi(page, demoAccount('supportEngineer'));
  await openNorthwind(page);
  await expect(row(page).getByTestId('instance-status')).toHaveText(t('instances.status.provisioned'));
  await expect(row(page).getByRole('link', { name: t('instances.logsFor', { name: INSTANCE }) })).toHaveAttribute(
    'href',
    `https://logs.example.com/instances/${INSTANCE}`,
  );
  expectNoViolations(await scan(page, 'instances section, support engineer'));

  // from the keyboard: the action, the dialog, and the focus back on the action afterwards
  const action = row(page).getByTestId(/^instance-(archive|restore)$/);
  await action.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: t('instances.archiveTitle') });
  await expect(dialog).toContainText(t('instances.archiveConfirm', { name: INSTANCE, count: 30 }));
  expectNoViolations(await scan(page, 'archive dialog', ['[role="dialog"]']));
  await dialog.getByRole('button', { name: t('instances.archiveYes') }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('notification-success').last()).toContainText(
    t('instances.archived', { name: INSTANCE }),
  );
  await expect(row(page).getByTestId('instance-status')).toHaveText(t('instances.status.archived'));
  await expect(row(page).getByTestId('instance-status')).toHaveAttribute('data-dot', 'invalid');
  await expect(row(page).getByTestId('instance-open')).toHaveCount(0);
  await expect(row(page).getByTestId('instance-open-inactive')).toBeDisabled();
  await expect(row(page).getByTestId('instance-logs')).toHaveCount(0);
  await expect(row(page).getByTestId('instance-delete-on')).toBeVisible();
  await expect(action).toHaveText(t('instances.restore'));
  await expect(action).toBeFocused();

  await page.keyboard.press('Enter');
  const restore = page.getByRole('dialog', { name: t('instances.restoreTitle') });
  await restore.getByRole('button', { name: t('instances.restoreYes') }).click();
  await expect(restore).toBeHidden();
  await expect(row(page).getByTestId('instance-status')).toHaveText(t('instances.status.provisioned'));
  await expect(row(page).getByTestId('instance-open')).toBeVisible();
  await expect(action).toHaveText(t('instances.archive'));
});

for (const locale of ['en', 'fr'] as const) {
  test(`the customer's project manager sees the instance Ready, with its open link and no logs link (${locale})`, async ({
    page,
  }) => {
    const t = await textsOf(locale);
    await signInThroughApi(page, OWNER);
    if (locale !== 'en') await setPreferredLocale(page, locale);
    try {
      await openNorthwind(page, locale);
      const status = row(page).getByTestId('instance-status');
      await expect(status).toHaveText(t('instances.status.provisioned'));
      await expect(status).toHaveAttribute('data-dot', 'valid');
      await expect(row(page)).toContainText(t('instances.tiers.trial'));
      const open = row(page).getByRole('link', { name: t('instances.openFor', { name: INSTANCE }) });
      await expect(open).toHaveAttribute('href', `https://${INSTANCE}.cloud.example.com`);
      await expect(open).toHaveAttribute('target', '_blank');
      await expect(section(page).getByTestId('instance-logs')).toHaveCount(0);
      await expect(section(page).getByRole('columnheader', { name: t('instances.columns.logs') })).toHaveCount(0);
      await expect(section(page).getByTestId(/^instance-(archive|restore)$/)).toHaveCount(0);
      for (const viewport of VIEWPORTS) {
        await resize(page, viewport);
        expectNoViolations(await scan(page, `instances section ${locale} ${viewport.name}`));
      }
      // a phone: the row is a card and the page no wider than the screen
      await expect(section(page).getByTestId('table-scroller')).toHaveAttribute('data-layout', 'cards');
      const { scrollWidth, innerWidth } = await pageWidth(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await expect(open).toBeVisible();
    } finally {
      if (locale !== 'en') await setPreferredLocale(page, 'en');
    }
  });
}
