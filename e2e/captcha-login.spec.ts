import { expect, test } from './fixtures';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink } from './helpers/api';
import { fillLoginForm, solveCaptcha, submitLogin } from './helpers/auth';
import { demoAccount } from './helpers/demo';

test('the third wrong password brings the captcha at once; once it is solved the right password signs in', async ({
  page,
}) => {
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
  for (let attempt = 1; attempt <= 2; attempt++) {
    await fillLoginForm(page, { email: user.email, password: `${password}x` });
    const answer = await submitLogin(page);
    expect(answer.status(), `wrong password, attempt ${attempt}`).toBe(401);
    await expect(page.getByTestId('login-error')).toContainText('Unable to authenticate');
    await expect(page.getByTestId('captcha')).toHaveCount(0);
  }

  // Decisions: after three failures a solved captcha must come with the sign-in. The third refusal
  // says so, and the captcha shows before the fourth attempt: that attempt is not refused for it.
  await fillLoginForm(page, { email: user.email, password: `${password}x` });
  const third = await submitLogin(page);
  expect(third.status()).toBe(401);
  await expect(page.getByTestId('login-error')).toContainText('Unable to authenticate');
  await expect(page.getByTestId('captcha')).toBeVisible();

  // Without the captcha solved, no call goes out.
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/auth/login') calls.push(request.method());
  });
  await fillLoginForm(page, { email: user.email, password });
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('login-error')).toHaveText(
    'Please confirm that you are not a robot, then sign in again.',
  );
  expect(calls).toEqual([]);

  await solveCaptcha(page);
  const accepted = await submitLogin(page);
  expect(accepted.status()).toBe(200);
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByRole('heading', { name: `Welcome, ${user.fullname}` })).toBeVisible();
});
