import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { Version } from '../common/api/catalogue';
import type { Locale } from '../common/roles';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink } from './helpers/api';
import { expectNoViolations, resize, scan, signInThroughApi, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { textsOf } from './helpers/texts';

/** A staff user of `type` speaking `locale` (the profile's language decides the pages' locale). */
async function staffUser(admin: APIRequestContext, type: 'admin' | 'productManager', locale: Locale) {
  const { user, welcomeLink } = await createStaffUser(admin, {
    label: `catalogue-${type}-${locale}`,
    type,
    fullname: `Catalogue ${type} ${locale.toUpperCase()}`,
    preferredLocale: locale,
  });
  const password = newPassword();
  await setPasswordFromLink(welcomeLink, password);
  return { email: user.email, password };
}

const rowOf = (page: Page, semVer: string) => page.locator(`[data-testid="version-row"][data-semver="${semVer}"]`);

for (const locale of ['en', 'fr'] as const) {
  test(`an admin adds a product; a product manager adds, edits and publishes a version (${locale})`, async ({
    page,
    browser,
  }) => {
    const t = await textsOf(locale);
    const demoAdmin = await apiSession(demoAccount('admin'));
    const admin = await staffUser(demoAdmin, 'admin', locale);
    const manager = await staffUser(demoAdmin, 'productManager', locale);
    await demoAdmin.dispose();
    const key = `journey-${locale}-${Date.now().toString(36)}`;
    const name = `Journey Product ${locale.toUpperCase()} ${Date.now()}`;

    // the admin adds the product from the products page
    await signInThroughApi(page, admin);
    await page.goto(`/${locale}/products`);
    await expect(page.getByRole('heading', { level: 1, name: t('products.title') })).toBeVisible();
    await expect(page.getByTestId('products-list')).toBeVisible();
    expectNoViolations(await scan(page, `products page ${locale}`));
    await page.getByRole('button', { name: t('catalogue.addProduct') }).click();
    const productDialog = page.getByRole('dialog', { name: t('catalogue.productModal.createTitle') });
    await productDialog.getByLabel(t('catalogue.fields.key')).fill(key);
    await productDialog.getByLabel(t('catalogue.fields.name')).fill(name);
    await productDialog.getByLabel(t('catalogue.fields.description')).fill('Made by the catalogue journey');
    await expect(productDialog.getByLabel(t('catalogue.fields.customizationType'))).toHaveValue('none');
    await productDialog.getByRole('button', { name: t('catalogue.productModal.create') }).click();
    await expect(productDialog).toBeHidden();
    await expect(page.getByTestId('notification-success')).toContainText(t('catalogue.productModal.created', { name }));
    await expect(page.getByRole('link', { name })).toBeVisible();

    // the product manager adds a version with Markdown release notes, edits and publishes it
    const managerContext = await browser.newContext({ locale });
    const managerPage = await managerContext.newPage();
    await signInThroughApi(managerPage, manager);
    await managerPage.goto(`/${locale}/products/${key}`);
    await expect(managerPage.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(managerPage.getByTestId('product-edit')).toHaveCount(0);
    await managerPage.getByRole('button', { name: t('catalogue.addVersion') }).click();
    const versionDialog = managerPage.getByRole('dialog', { name: t('catalogue.versionModal.createTitle') });
    await versionDialog.getByLabel(t('catalogue.fields.title')).fill('Autumn release');
    await versionDialog.getByLabel(t('catalogue.fields.semVer')).fill('1.9.0');
    await versionDialog
      .getByLabel(t('catalogue.fields.versionDescription'))
      .fill('- Faster layouts\n- See [the guide](https://example.com/guide)');
    // the modal as a region: the product page beneath is scanned on its own below
    expectNoViolations(await scan(managerPage, `version modal ${locale}`, ['[role="dialog"]']));
    await versionDialog.getByRole('button', { name: t('catalogue.versionModal.create') }).click();
    await expect(versionDialog).toBeHidden();
    const row = rowOf(managerPage, '1.9.0');
    await expect(row).toContainText(t('catalogue.unpublished'));

    await row.getByTestId('version-edit').click();
    const editDialog = managerPage.getByRole('dialog', {
      name: t('catalogue.versionModal.editTitle', { version: '1.9.0' }),
    });
    const preview = editDialog.getByTestId('version-description-preview');
    await expect(preview.getByRole('link', { name: 'the guide' })).toHaveAttribute('href', 'https://example.com/guide');
    await expect(preview.locator('li')).toHaveCount(2);
    await editDialog.getByLabel(t('catalogue.fields.versionDescription')).fill('- Faster layouts\n- Smaller files');
    await editDialog.getByRole('button', { name: t('catalogue.save') }).click();
    await expect(editDialog).toBeHidden();

    await row.getByTestId('version-publish').click();
    const confirm = managerPage.getByTestId('version-publish-confirm');
    await expect(confirm).toContainText(t('catalogue.publish.confirm', { version: '1.9.0' }));
    await confirm.getByRole('button', { name: t('catalogue.publish.yes') }).click();
    await expect(confirm).toBeHidden();
    await expect(row.getByTestId('version-publish')).toHaveCount(0);
    await expect(row).toContainText(/\d{4}-\d{2}-\d{2}/);

    const session = await apiSession(manager);
    try {
      const created = await session.post(`/api/products/${key}/versions`, {
        data: { title: 'Winter release', semVer: '1.10.0', description: 'Notes' },
      });
      expect(created.status(), await created.text()).toBe(201);
      const published = (
        (await (await session.get(`/api/products/${key}/versions`)).json()) as { data: Version[] }
      ).data.find((v) => v.semVer === '1.9.0');
      expect(published).toMatchObject({ published: true, description: '- Faster layouts\n- Smaller files' });
    } finally {
      await session.dispose();
    }
    await managerPage.reload();
    await expect(managerPage.getByTestId('version-row')).toHaveCount(2);
    const order = await managerPage
      .getByTestId('version-row')
      .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.semver));
    expect(order).toEqual(['1.10.0', '1.9.0']);
    // at every width down to a phone's 390 px, the page and the version modal stay usable
    for (const viewport of VIEWPORTS) {
      await resize(managerPage, viewport);
      expectNoViolations(await scan(managerPage, `product page ${locale} ${viewport.name}`));
      const overflow = await managerPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal overflow at ${viewport.name}`).toBeLessThanOrEqual(0);
    }
    await rowOf(managerPage, '1.10.0').getByTestId('version-edit').focus();
    await managerPage.keyboard.press('Enter');
    const keyboardDialog = managerPage.getByRole('dialog', {
      name: t('catalogue.versionModal.editTitle', { version: '1.10.0' }),
    });
    await expect(keyboardDialog.getByLabel(t('catalogue.fields.title'))).toBeFocused();
    expectNoViolations(await scan(managerPage, `version modal ${locale} phone`, ['[role="dialog"]']));
    await managerPage.keyboard.press('Escape');
    await expect(keyboardDialog).toBeHidden();
    await expect(rowOf(managerPage, '1.10.0').getByTestId('version-edit')).toBeFocused();
    await managerContext.close();
  });
}
