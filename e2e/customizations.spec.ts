import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { CustomerList } from '../common/api/customers';
import type { Customization, CustomizationList } from '../common/api/customizations';
import type { Locale } from '../common/roles';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { apiSession } from './helpers/api';
import { expectNoViolations, resize, scan, setPreferredLocale } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { pageWidth, signInThroughApi } from './helpers/session';

async function acmeId(session: APIRequestContext): Promise<number> {
  const answer = await session.get(`/api/customers?filter=${encodeURIComponent(DEMO_CUSTOMER_NAME)}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as CustomerList).data.find((c) => c.name === DEMO_CUSTOMER_NAME)!.id;
}

/** The demo customization of Acme's Graph Server (an lke product), as the API gives it. */
async function graphServerCustomization(session: APIRequestContext, customerId: number): Promise<Customization> {
  const answer = await session.get(`/api/customers/${customerId}/customizations?productKey=graph-server`);
  expect(answer.status()).toBe(200);
  const [customization] = ((await answer.json()) as CustomizationList).data;
  expect(customization, 'the demo seed customizes Acme’s Graph Server').toBeTruthy();
  return customization;
}

/** Replaces the whole text of the JSON editor, as a user selecting all and typing over it. */
async function replaceConfig(page: Page, editor: ReturnType<Page['getByRole']>, text: string) {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const TEXTS = {
  en: {
    action: 'Customization of Graph Server',
    config: 'Configuration (JSON)',
    validate: 'Validate',
    save: 'Save',
    invalid: 'The configuration is invalid: 1 problem',
    valid: 'The configuration is valid.',
    updated: 'The customization of Graph Server was updated',
  },
  fr: {
    action: 'Personnalisation de Graph Server',
    config: 'Configuration (JSON)',
    validate: 'Valider',
    save: 'Enregistrer',
    invalid: 'La configuration est invalide : 1 problème',
    valid: 'La configuration est valide.',
    updated: 'La personnalisation de Graph Server a été mise à jour',
  },
} as const;

for (const locale of ['en', 'fr'] as const satisfies readonly Locale[]) {
  test(`a product manager corrects a licence's customization in the JSON editor (${locale})`, async ({ page }) => {
    const text = TEXTS[locale];
    const admin = await apiSession(demoAccount('admin'));
    const customerId = await acmeId(admin);
    const before = await graphServerCustomization(admin, customerId);
    const applicationName = `Acme Graph ${locale.toUpperCase()} ${Date.now()}`;
    try {
      await signInThroughApi(page, demoAccount('productManager'));
      if (locale === 'fr') await setPreferredLocale(page, 'fr');
      await page.goto(`/${locale}/accounts/${customerId}`);
      await page.getByRole('button', { name: text.action }).click();

      const dialog = page.getByRole('dialog', { name: new RegExp(`${DEMO_CUSTOMER_NAME}\\s*Graph Server`) });
      await expect(dialog.getByTestId('customization-product')).toHaveText('Graph Server');
      const editor = dialog.getByRole('textbox', { name: text.config });
      await expect(editor).toHaveValue(/applicationName/);

      // a colour that is not one: the server's schema finds it, with its place
      await replaceConfig(
        page,
        editor,
        JSON.stringify({ branding: { applicationName, primaryColor: 'blue' }, defaultLocale: 'en' }),
      );
      await dialog.getByRole('button', { name: text.validate }).click();
      const problems = dialog.getByTestId('customization-problems');
      await expect(problems).toContainText(text.invalid);
      await expect(problems.getByTestId('customization-problem')).toContainText('/branding/primaryColor');
      expectNoViolations(await scan(page, `customization modal with a problem (${locale})`));

      await replaceConfig(
        page,
        editor,
        JSON.stringify({ branding: { applicationName, primaryColor: '#1a73e8' }, defaultLocale: 'en' }),
      );
      await expect(problems).toBeHidden();
      await dialog.getByRole('button', { name: text.validate }).click();
      await expect(dialog.getByTestId('customization-valid')).toHaveText(text.valid);
      // the page beneath was scanned with the first state; the modal alone from here on
      expectNoViolations(await scan(page, `customization modal, valid (${locale})`, ['[role="dialog"]']));
      // on a phone too: the modal takes the width, nothing to scroll sideways
      await resize(page, { width: 390, height: 844 });
      expectNoViolations(await scan(page, `customization modal, 390 px (${locale})`, ['[role="dialog"]']));
      const width = await pageWidth(page);
      expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
      await dialog.getByRole('button', { name: text.save }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('notification-success')).toContainText(text.updated);

      const after = await graphServerCustomization(admin, customerId);
      expect(after.customConfig).toEqual({
        branding: { applicationName, primaryColor: '#1a73e8' },
        defaultLocale: 'en',
      });
    } finally {
      await admin.patch(`/api/customizations/${before.id}`, {
        data: { versionType: before.versionType, customConfig: before.customConfig, enabled: before.enabled },
      });
      if (locale === 'fr') await setPreferredLocale(page, 'en');
      await admin.dispose();
    }
  });
}

test('an account executive sees a licence ending soon and follows Renew to its licence modal', async ({ page }) => {
  await signInThroughApi(page, demoAccount('accountExecutive'));
  await page.goto('/en/select-account');
  const panel = page.getByRole('region', { name: 'Licences ending in the next 90 days' });
  // the demo seed ends Acme's Graph Toolkit licence in 45 days
  const row = panel.getByTestId('ending-licence').filter({ hasText: DEMO_CUSTOMER_NAME }).filter({
    hasText: 'Graph Toolkit',
  });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('ending-licence-date')).toHaveAttribute('data-status', 'warning');
  expectNoViolations(await scan(page, 'account picker with the licences ending soon'));
  // on a phone the rows wrap: nothing to scroll sideways
  await resize(page, { width: 390, height: 844 });
  await expect(row).toBeVisible();
  const width = await pageWidth(page);
  expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
  expectNoViolations(await scan(page, 'account picker with the licences ending soon, 390 px'));

  await row.getByRole('link', { name: `Renew the Graph Toolkit licence of ${DEMO_CUSTOMER_NAME}` }).click();
  await expect(page).toHaveURL(/\/en\/accounts\/\d+/);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Graph Toolkit');
});
