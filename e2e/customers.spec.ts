import { expect, test } from './fixtures';
import type { Customer } from '../common/api/customers';
import { CUSTOMER_KEY_ALPHABET } from '../common/customer-key';
import type { Locale } from '../common/roles';
import { staffUserWithPassword } from './helpers/api';
import { setPreferredLocale, signInThroughApi } from './helpers/axe';

/** The words of the journey in each language, as the page shows them. */
const TEXTS: Record<Locale, { add: string; name: string; save: string; search: string; created: RegExp }> = {
  en: {
    add: 'Add',
    name: 'Name',
    save: 'Save',
    search: 'Search customers',
    created: /^The customer (.+) was created with the key ([A-Z0-9]{10})\.$/,
  },
  fr: {
    add: 'Ajouter',
    name: 'Nom',
    save: 'Enregistrer',
    search: 'Rechercher des clients',
    created: /^Le client (.+) a été créé avec la clé ([A-Z0-9]{10})\.$/,
  },
};

for (const locale of ['en', 'fr'] as const) {
  test(`an admin creates a customer with a generated key and finds it by name and by key (${locale})`, async ({
    page,
  }) => {
    const texts = TEXTS[locale];
    // An admin of its own, so that changing the language leaves the demo admin as it is.
    const { user, password } = await staffUserWithPassword({
      label: `customers-${locale}`,
      type: 'admin',
      fullname: 'Customer Journey Admin',
    });
    await signInThroughApi(page, { email: user.email, password });
    await setPreferredLocale(page, locale);
    const name = `Journey ${locale} ${Date.now().toString(36)}`;

    await page.goto(`/${locale}/customers`);
    const search = page.getByLabel(texts.search, { exact: true });
    await expect(search).toBeFocused();
    await page.getByRole('button', { name: texts.add, exact: true }).click();
    const modal = page.getByRole('dialog');
    await modal.getByLabel(texts.name, { exact: true }).fill(name);
    const createCall = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/customers',
    );
    await modal.getByRole('button', { name: texts.save, exact: true }).click();
    const answer = await createCall;
    expect(answer.status(), `POST /api/customers: ${await answer.text()}`).toBe(201);
    const created = (await answer.json()) as Customer;
    expect(created.customerKey).toMatch(new RegExp(`^[${CUSTOMER_KEY_ALPHABET}]{10}$`));
    await expect(modal).toBeHidden();

    // The generated key is shown to the admin in the success notification.
    const toast = page.getByTestId('notification-success').filter({ hasText: created.customerKey });
    await expect(toast).toBeVisible();
    expect((await toast.innerText()).trim()).toMatch(texts.created);
    expect((await toast.innerText()).trim()).toContain(`${name}`);

    // Found by a part of its name, whatever the case, then by its key.
    const cards = page.getByTestId('customer-card');
    await search.fill(name.slice(8).toUpperCase());
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(name);
    await expect(cards.first()).toContainText(created.customerKey);
    await search.fill(created.customerKey.toLowerCase());
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(name);

    await cards.first().click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/accounts/${created.id}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  });
}
