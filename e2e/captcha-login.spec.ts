import { expect, test } from '@playwright/test';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink } from './helpers/api';
import { fillLoginForm, solveCaptcha, submitLogin } from './helpers/auth';
import { demoAccount } from './helpers/demo';

test('three wrong passwords bring the captcha; once it is solved the right password signs in', async ({ page }) => {
  // A user of its own: the failed attempts count against this e-mail only and touch no other journey.
  const admin = await apiSession(demoAccount('admin'));
  const { user, welcomeLink } = await createStaffUser(admin, {
    label: 'captcha',
    type: 'supportEngineer',
    fullname: 'Casey Captcha',
  });
  await admin.dispose();
  const password = newPassword();
  await setPasswordFromLink(welcomeLink, password);

  await page.goto('/en/login');
  for (let attempt = 1; attempt <= 3; attempt++) {
    await fillLoginForm(page, { email: user.email, password: `${password}x` });
    const answer = await submitLogin(page);
    expect(answer.status(), `wrong password, attempt ${attempt}`).toBe(401);
    await expect(page.getByTestId('login-error')).toContainText('Unable to authenticate');
    await expect(page.getByTestId('captcha')).toHaveCount(0);
  }

  // Decisions: after three failures the login answers 420 until a solved captcha comes with it,
  // even with the right password.
  await fillLoginForm(page, { email: user.email, password });
  const refused = await submitLogin(page);
  expect(refused.status()).toBe(420);
  await expect(page.getByTestId('captcha')).toBeVisible();
  await expect(page).toHaveURL(/\/en\/login$/);

  await solveCaptcha(page);
  const accepted = await submitLogin(page);
  expect(accepted.status()).toBe(200);
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${user.fullname}` })).toBeVisible();
});
