import { expect, test } from './fixtures';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink, uniqueEmail } from './helpers/api';
import { demoAccount } from './helpers/demo';
import { linkIn, waitForMail } from './helpers/mailbox';
import { signInThroughApi } from './helpers/session';

const CONFIRM_EMAIL_LINK = /\/en\/confirm-email\/[^/?#\s]+$/;

test('a user changes their e-mail: current password, link to the new address, notice to the old one', async ({
  page,
}) => {
  const admin = await apiSession(demoAccount('admin'));
  const { user, welcomeLink } = await createStaffUser(admin, {
    label: 'mover',
    type: 'supportEngineer',
    fullname: 'Morgan Mover',
  });
  await admin.dispose();
  const password = newPassword();
  await setPasswordFromLink(welcomeLink, password);
  await signInThroughApi(page, { email: user.email, password });

  await page.goto('/en/settings');
  const form = page.getByTestId('settings-profile');
  const newEmail = uniqueEmail('moved');
  const since = new Date();
  await form.getByLabel('Email', { exact: true }).fill(newEmail);
  await form.getByLabel('Current password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByTestId('settings-email-pending')).toContainText(`A confirmation link was sent to ${newEmail}`);
  // Nothing changed yet: the account keeps its address until the link is followed.
  await expect(form.getByLabel('Email', { exact: true })).toHaveValue(user.email);

  const notice = await waitForMail({ to: user.email, since, subject: /change of your e-mail address/ });
  expect(notice.text).toContain(newEmail);
  const confirmation = await waitForMail({ to: newEmail, since, link: CONFIRM_EMAIL_LINK });

  await page.goto(linkIn(confirmation, CONFIRM_EMAIL_LINK).href);
  await expect(page.getByText(`Your e-mail address is now ${newEmail}.`)).toBeVisible();
  await page.getByRole('link', { name: 'Go to my settings' }).click();
  await expect(page.getByTestId('settings-profile').getByLabel('Email', { exact: true })).toHaveValue(newEmail);

  // The link works once.
  await page.goto(linkIn(confirmation, CONFIRM_EMAIL_LINK).href);
  await expect(page.getByRole('alert')).toContainText('This link is invalid or has expired.');

  // The new address signs in; the old one no longer does.
  const again = await apiSession({ email: newEmail, password });
  await again.dispose();
  const old = await page.request.post('/api/auth/login', { data: { email: user.email, password } });
  expect(old.status()).toBe(401);
});
