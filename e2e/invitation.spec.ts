import { expect, test } from './fixtures';
import { newPassword, staffUserWithPassword, uniqueEmail } from './helpers/api';
import { fillLoginForm, submitLogin } from './helpers/auth';
import { INVITED_CUSTOMER as CUSTOMER_NAME, inviteByMail, readAndAccept } from './helpers/invitations';

const TEXTS = {
  en: {
    join: 'Join',
    eula: 'End-user licence agreement',
    gdpr: 'Privacy notice',
    accept: 'I accept',
    fullName: 'Full name',
    password: 'Password',
    confirmation: 'Confirm password',
    submit: 'Create my account',
    summary: `Alice Martin invites you to join ${CUSTOMER_NAME} as Technical contact.`,
  },
  fr: {
    join: 'Rejoindre',
    eula: 'Contrat de licence utilisateur final',
    gdpr: 'Notice de confidentialité',
    accept: "J'accepte",
    fullName: 'Nom complet',
    password: 'Mot de passe',
    confirmation: 'Confirmez le mot de passe',
    submit: 'Créer mon compte',
    summary: `Alice Martin vous invite à rejoindre ${CUSTOMER_NAME} en tant que Contact technique.`,
  },
} as const;

for (const locale of ['en', 'fr'] as const) {
  test(`a new contact joins from the invitation mail through the EULA and the GDPR notice (${locale})`, async ({
    page,
    baseURL,
  }) => {
    const text = TEXTS[locale];
    const email = uniqueEmail(`invited-${locale}`);
    const { link, customerId: target } = await inviteByMail({ email, fullName: 'Nina Newcomer', locale });
    expect(link.origin).toBe(new URL(baseURL!).origin);
    expect(link.pathname.startsWith(`/${locale}/invitation/`)).toBe(true);

    await page.goto(link.href);
    await expect(page.getByTestId('invitation-summary')).toHaveText(text.summary);
    await page.getByRole('button', { name: text.join, exact: true }).click();
    await readAndAccept(page, text.eula, text.accept);
    await readAndAccept(page, text.gdpr, text.accept);

    await expect(page.getByLabel(text.fullName)).toHaveValue('Nina Newcomer');
    const password = newPassword();
    await page.getByLabel(text.password, { exact: true }).fill(password);
    await page.getByLabel(text.confirmation, { exact: true }).fill(password);
    await page.getByRole('button', { name: text.submit, exact: true }).click();

    await expect(page).toHaveURL(new RegExp(`/${locale}/accounts/${target}$`));
    await expect(page.getByRole('heading', { level: 1, name: CUSTOMER_NAME })).toBeVisible();

    // The link worked once: following it again says so.
    await page.goto(link.href);
    await expect(page.getByTestId('error-page')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(locale === 'fr' ? 'Erreur 410' : 'Error 410');
  });
}

test('an existing user who is not signed in signs in from the invitation and comes back to join', async ({ page }) => {
  const { user, password } = await staffUserWithPassword({
    label: 'invited-exec',
    type: 'accountExecutive',
    fullname: 'Evan Executive',
  });
  const { link, customerId: target } = await inviteByMail({
    email: user.email,
    fullName: user.fullname,
    role: 'accountExecutive',
  });

  await page.goto(link.href);
  await expect(page).toHaveURL(/\/en\/login\?redirect=/);
  await fillLoginForm(page, { email: user.email, password });
  expect((await submitLogin(page)).status()).toBe(200);
  await expect(page).toHaveURL(link.href);
  await expect(page.getByTestId('invitation-summary')).toContainText(CUSTOMER_NAME);

  // The invitation path was not remembered as the stored redirect (spec 2).
  expect(await page.evaluate(() => window.localStorage.getItem('redirect'))).toBeNull();

  await page.getByRole('button', { name: 'Join', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/en/accounts/${target}$`));
  await expect(page.getByRole('heading', { level: 1, name: CUSTOMER_NAME })).toBeVisible();
});
