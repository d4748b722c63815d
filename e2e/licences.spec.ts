import crypto from 'node:crypto';
import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { Customer, CustomerList } from '../common/api/customers';
import type { Licence, LicenceList } from '../common/api/licences';
import type { LicenceFile, LicenceFilePayload, LicenceSigningKeyList } from '../common/api/licence-files';
import type { Locale } from '../common/roles';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink } from './helpers/api';
import { expectNoViolations, resize, scan, signInThroughApi, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { MONTHS, textsOf } from './helpers/texts';

/** The 15th of the month after the one of `day`, YYYY-MM-DD. */
function fifteenthOfNextMonth(day: string): string {
  const [year, month] = day.split('-').map(Number);
  const next = month === 12 ? { year: year + 1, month: 1 } : { year, month: month + 1 };
  return `${next.year}-${String(next.month).padStart(2, '0')}-15`;
}

/** DD MMM YYYY of a calendar day YYYY-MM-DD. */
const licenceDate = (day: string, locale: Locale) => {
  const [year, month, date] = day.split('-');
  return `${date} ${MONTHS[locale][Number(month) - 1]} ${year}`;
};

/** A customer of the journey's own, with an account executive of its own speaking `locale`. */
async function customerWithExecutive(locale: Locale) {
  const admin = await apiSession(demoAccount('admin'));
  try {
    const created = await admin.post('/api/customers', {
      data: { name: `Licence Journey ${locale.toUpperCase()} ${Date.now()}`, customerKey: '', selfService: false },
    });
    expect(created.status(), await created.text()).toBe(201);
    const customer = (await created.json()) as Customer;
    const { user, welcomeLink } = await createStaffUser(admin, {
      label: `licences-ae-${locale}`,
      type: 'accountExecutive',
      fullname: `Lea Licence ${locale.toUpperCase()}`,
      preferredLocale: locale,
    });
    const password = newPassword();
    await setPasswordFromLink(welcomeLink, password);
    const assigned = await admin.put(`/api/customers/${customer.id}/account-executive`, { data: { userId: user.id } });
    expect(assigned.status(), await assigned.text()).toBe(200);
    return { customer, executive: { email: user.email, password } };
  } finally {
    await admin.dispose();
  }
}

async function licencesOf(session: APIRequestContext, customerId: number): Promise<Licence[]> {
  const answer = await session.get(`/api/customers/${customerId}/licenses`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as LicenceList).data;
}

const section = (page: Page) => page.getByTestId('licences-section');

for (const locale of ['en', 'fr'] as const) {
  test(`an account executive adds a licence and renews it (${locale})`, async ({ page }) => {
    const t = await textsOf(locale);
    const { customer, executive } = await customerWithExecutive(locale);
    await signInThroughApi(page, executive);
    await page.goto(`/${locale}/accounts/${customer.id}`);
    await expect(section(page).getByTestId('licences-empty')).toHaveText(t('licences.empty'));

    // adding: the first product is preselected, the data is checked before anything is sent
    await section(page)
      .getByRole('button', { name: t('licences.add') })
      .click();
    const dialog = page.getByRole('dialog', { name: t('licences.modal.createTitle') });
    const product = dialog.getByLabel(t('licences.modal.product'));
    // the first of the products the customer may be given, by name (other journeys add products)
    const licensable = await page.request.get(`/api/customers/${customer.id}/licensable-products`);
    expect(licensable.status()).toBe(200);
    const [first] = ((await licensable.json()) as { data: { key: string }[] }).data;
    await expect(product).toHaveValue(first.key);
    await expect(dialog.getByLabel(t('licences.modal.accessLevel'))).toHaveValue('stable');
    const data = dialog.getByRole('textbox', { name: t('licences.modal.data') });
    await expect(data).toBeVisible();
    await data.fill('{"fixedLicenses": ');
    await dialog.getByRole('button', { name: t('licences.modal.create') }).click();
    await expect(dialog.getByText(t('licences.errors.invalidJson'))).toBeVisible();
    await expect(data).toBeFocused();

    for (const viewport of VIEWPORTS) {
      await resize(page, viewport);
      // the modal as a region: the licences section beneath is scanned on its own below
      expectNoViolations(await scan(page, `licence modal ${locale} ${viewport.name}`, ['[role="dialog"]']));
    }
    await resize(page, VIEWPORTS[0]);

    await product.selectOption('graph-server');
    await data.fill('{"fixedLicenses": 3}');
    await dialog.getByLabel(t('licences.modal.entityResolution')).check();
    await dialog.getByRole('button', { name: t('licences.modal.create') }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('notification-success')).toContainText(t('licences.modal.created'));
    // the focus is back on the button that opened the modal
    await expect(section(page).getByRole('button', { name: t('licences.add') })).toBeFocused();

    const row = section(page).locator('[data-testid="licence-row"][data-product="graph-server"]');
    await expect(row.getByTestId('licence-product')).toHaveText(
      `Graph Server ${t('licences.suffix.entityResolution')}`,
    );
    const admin = await apiSession(demoAccount('admin'));
    try {
      const [created] = await licencesOf(admin, customer.id);
      expect(created).toMatchObject({ productKey: 'graph-server', accessLevel: 'stable', data: { fixedLicenses: 3 } });
      expect(created.hasEntityResolution).toBe(true);
      await expect(row.getByTestId('licence-end-date')).toHaveText(licenceDate(created.endDate, locale));
      await expect(row.getByTestId('licence-status')).toHaveText(t('licences.status.valid'));
      await expect(row.getByTestId('licence-access-level')).toHaveText(t('licences.accessLevels.stable'));

      // renewing: from the row, the access level changed
      await row.getByTestId('licence-renew').click();
      const renew = page.getByRole('dialog', { name: t('licences.modal.renewTitle') });
      await expect(renew.getByRole('textbox', { name: t('licences.modal.data') })).toHaveValue(/"fixedLicenses": 3/);
      // replacing the key: the question takes the focus on its safe answer, and the button has it back after
      await renew.getByTestId('licence-replace-key').click();
      await expect(renew.getByRole('button', { name: t('licences.modal.keepKey') })).toBeFocused();
      await renew.getByTestId('licence-replace-key-yes').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('notification-success').last()).toContainText(t('licences.modal.keyReplaced'));
      await expect(renew.getByTestId('licence-replace-key')).toBeFocused();
      await renew.getByLabel(t('licences.modal.accessLevel')).selectOption('beta');
      // the end date through the browser's date picker: the 15th of the month after the current end,
      // in the browser's time zone (Europe/Paris), kept as that very calendar day and written below
      // the field as spec 9 writes licence dates
      const newEnd = fifteenthOfNextMonth(created.endDate);
      const endField = renew.getByLabel(t('licences.modal.endDate'));
      await endField.fill(newEnd);
      await expect(renew.getByText(licenceDate(newEnd, locale), { exact: true })).toBeVisible();
      expectNoViolations(await scan(page, `licence renewal with a new end date ${locale}`, ['[role="dialog"]']));
      await renew.getByRole('button', { name: t('licences.modal.save') }).click();
      await expect(renew).toBeHidden();
      await expect(page.getByTestId('notification-success').last()).toContainText(t('licences.modal.updated'));
      await expect(row.getByTestId('licence-access-level')).toHaveText(t('licences.accessLevels.beta'));
      await expect(row.getByTestId('licence-end-date')).toHaveText(licenceDate(newEnd, locale));
      const renewed = (await licencesOf(admin, customer.id))[0];
      expect(renewed).toMatchObject({ accessLevel: 'beta', endDate: newEnd });

      // the renewal opens from the address too (the ending-licences panels link there), once
      await page.goto(`/${locale}/accounts/${customer.id}?renew=${created.id}`);
      await expect(page.getByRole('dialog', { name: t('licences.modal.renewTitle') })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/${locale}/accounts/${customer.id}$`));
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();

      for (const viewport of VIEWPORTS) {
        await resize(page, viewport);
        expectNoViolations(await scan(page, `licences section ${locale} ${viewport.name}`));
      }
      // on a phone the table scrolls in its own box: the page itself is no wider than the screen
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(VIEWPORTS[1].width);
    } finally {
      await admin.dispose();
    }
  });
}

test('a technical contact downloads the signed licence file and copies the download key', async ({ page, context }) => {
  const tech = demoAccount('technicalContact');
  await signInThroughApi(page, tech);
  const customers = (await (await page.request.get('/api/customers')).json()) as CustomerList;
  const acme = customers.data.find((c) => c.name === DEMO_CUSTOMER_NAME)!;
  const server = (await licencesOf(page.request, acme.id)).find((l) => l.productKey === 'graph-server')!;
  expect(server.downloadSecret).toBeTruthy();

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`/en/accounts/${acme.id}`);
  const row = section(page).locator('[data-testid="licence-row"][data-product="graph-server"]');
  await expect(row).toBeVisible();
  // the customer's own contacts see the access levels in the header
  await expect(page.getByTestId('licence-access-levels')).toContainText(
    'Graph Server (with Entity resolution): access level stable',
  );
  // no staff columns nor actions for a technical contact
  await expect(row.getByTestId('licence-access-level')).toHaveCount(0);
  await expect(row.getByTestId('licence-renew')).toHaveCount(0);

  const download = row.getByRole('link', {
    name: 'Licence file of Graph Server (with Entity resolution), to download',
  });
  await expect(download).toHaveAttribute('href', `/api/download/license/graph-server?customerId=${acme.id}`);
  // the file downloaded is the customer's licence of that product, signed with a published key
  const [saved] = await Promise.all([page.waitForEvent('download'), download.click()]);
  const file = JSON.parse(fs.readFileSync((await saved.path())!, 'utf8')) as LicenceFile;
  const payload = JSON.parse(Buffer.from(file.payload, 'base64url').toString('utf8')) as LicenceFilePayload;
  expect(payload).toMatchObject({
    licenceId: server.id,
    customer: { name: DEMO_CUSTOMER_NAME, key: acme.customerKey },
    product: { key: 'graph-server', name: 'Graph Server' },
    accessLevel: server.accessLevel,
    endDate: server.endDate,
  });
  const keys = (await (await page.request.get('/api/licence-files/keys')).json()) as LicenceSigningKeyList;
  const key = keys.data.find((k) => k.keyId === file.keyId)!;
  expect(
    crypto.verify(
      null,
      Buffer.from(file.payload, 'ascii'),
      crypto.createPublicKey(key.publicKey),
      Buffer.from(file.signature, 'base64url'),
    ),
  ).toBe(true);

  await row.getByRole('button', { name: /Copy download key/ }).click();
  await expect(page.getByTestId('notification-success')).toContainText('The download key was copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(server.downloadSecret);
});
