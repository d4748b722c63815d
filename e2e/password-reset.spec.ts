import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiSession, createStaffUser, newPassword, RESET_PASSWORD_LINK, setPasswordFromLink } from './helpers/api';
import { fillLoginForm, signIn, solveCaptcha, submitLogin } from './helpers/auth';
import { demoAccount } from './helpers/demo';
import { linkIn, waitForMail } from './helpers/mailbox';

/** Fills and submits the reset form, then expects the spec's redirect to the login page. */
async function chooseNewPassword(page: Page, password: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Reset password', exact: true }).click();
  await expect(page).toHaveURL(/\/en\/login$/);
  await expect(page.getByText('Your password has been changed. You can now sign in.')).toBeVisible();
}

async function expectHome(page: Page, fullName: string): Promise<void> {
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${fullName}` })).toBeVisible();
}

test('a user created by an admin chooses a password from the account-created mail', async ({ page, baseURL }) => {
  const admin = await apiSession(demoAccount('admin'));
  const { user, welcomeMail, welcomeLink } = await createStaffUser(admin, {
    label: 'welcome',
    type: 'productManager',
    fullname: 'Wendy Welcome',
  });
  await admin.dispose();
  expect(welcomeMail.to).toEqual([user.email]);
  // Mail links are built from BASE_URL: they must lead to this portal.
  expect(welcomeLink.origin).toBe(new URL(baseURL!).origin);

  const password = newPassword();
  await page.goto(welcomeLink.href);
  await chooseNewPassword(page, password);
  await signIn(page, { email: user.email, password });
  await expectHome(page, user.fullname);
});

test('a forgotten password is reset from the mailed link', async ({ page, browser }) => {
  const admin = await apiSession(demoAccount('admin'));
  const { user, welcomeLink } = await createStaffUser(admin, {
    label: 'reset',
    type: 'supportEngineer',
    fullname: 'Rory Reset',
  });
  await admin.dispose();
  const oldPassword = newPassword();
  await setPasswordFromLink(welcomeLink, oldPassword);

  await page.goto('/en/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/en\/password-lost$/);
  const submit = page.getByRole('button', { name: 'Send reset link', exact: true });
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  // Spec: submit stays disabled until the form is valid, captcha included.
  await expect(submit).toBeDisabled();
  await solveCaptcha(page);
  const requestedAt = new Date();
  await submit.click();
  await expect(page.getByText('An email is on its way.')).toBeVisible();

  const mail = await waitForMail({ to: user.email, since: requestedAt, link: RESET_PASSWORD_LINK });
  const link = linkIn(mail, RESET_PASSWORD_LINK);
  expect(link.href).not.toBe(welcomeLink.href);

  await page.goto(link.href);
  const newOne = newPassword();
  await chooseNewPassword(page, newOne);
  // The sign-in form comes with the account's address: only the password is left to type.
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();

  // The old password no longer works; the new one does.
  await fillLoginForm(page, { email: user.email, password: oldPassword });
  const refused = await submitLogin(page);
  expect(refused.status()).toBe(401);
  await fillLoginForm(page, { email: user.email, password: newOne });
  const accepted = await submitLogin(page);
  expect(accepted.status()).toBe(200);
  await expectHome(page, user.fullname);

  // Single use: opened again (by someone not signed in), the link reads as invalid.
  const stranger = await browser.newContext();
  const second = await stranger.newPage();
  await second.goto(link.href);
  await expect(second.getByText('This token seems invalid.')).toBeVisible();
  await expect(second.getByRole('link', { name: 'Request a new link' })).toBeVisible();
  await stranger.close();
});
