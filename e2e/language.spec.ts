import { expect, test } from './fixtures';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink } from './helpers/api';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';
import { chooseOption, openUserMenu } from './helpers/ui';

test('choosing French in the settings translates the portal, moves to /fr and survives a reload', async ({ page }) => {
  // A user of its own: the preferred language is stored on the account and would follow a shared one.
  const admin = await apiSession(demoAccount('admin'));
  const { user, welcomeLink } = await createStaffUser(admin, {
    label: 'language',
    type: 'supportEngineer',
    fullname: 'Lou Langue',
  });
  await admin.dispose();
  const password = newPassword();
  await setPasswordFromLink(welcomeLink, password);

  await signInThroughApi(page, { email: user.email, password });
  await page.goto('/en');
  await openUserMenu(page);
  await page.getByTestId('menu-settings').click();
  await expect(page).toHaveURL(/\/en\/settings$/);
  await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();

  await chooseOption(page, 'Preferred language', 'Français');
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  await expect(page).toHaveURL(/\/fr\/settings$/);
  await expect(page.getByText('Vos paramètres ont été enregistrés.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Paramètres', exact: true })).toBeVisible();
  await expect(page.getByTestId('nav-customers')).toHaveText('Clients');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');

  await page.reload();
  await expect(page).toHaveURL(/\/fr\/settings$/);
  await expect(page.getByRole('heading', { name: 'Paramètres', exact: true })).toBeVisible();

  // The preference is the account's: an English address sends the user back to French.
  await page.goto('/en/settings');
  await expect(page).toHaveURL(/\/fr\/settings$/);
  await expect(page.getByRole('heading', { name: 'Paramètres', exact: true })).toBeVisible();
});
