import { expect, type Page, type Response } from '@playwright/test';
import type { Locale } from '../../common/roles';

export interface Credentials {
  email: string;
  password: string;
}

export function isLoginCall(response: Response): boolean {
  return response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/auth/login';
}

export async function fillLoginForm(page: Page, { email, password }: Credentials): Promise<void> {
  // the pre-rendered form's button is enabled once the page is hydrated: fields typed into before
  // that are kept by typed-before-hydration, but its hand-over is not what these journeys check
  await expect(page.getByRole('button', { name: /^(Sign in|Se connecter)$/ })).toBeEnabled();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

/** Clicks "Sign in" and returns the answer of the login call it makes. */
export async function submitLogin(page: Page, buttonName = 'Sign in'): Promise<Response> {
  const answer = page.waitForResponse(isLoginCall);
  await page.getByRole('button', { name: buttonName, exact: true }).click();
  return answer;
}

/** Signs in through the login page and waits until the page has left it. */
export async function signIn(page: Page, credentials: Credentials, locale: Locale = 'en'): Promise<void> {
  await page.goto(`/${locale}/login`);
  await fillLoginForm(page, credentials);
  const answer = await submitLogin(page, locale === 'fr' ? 'Se connecter' : 'Sign in');
  expect(answer.status(), `sign-in of ${credentials.email}`).toBe(200);
  await expect(page).not.toHaveURL(/\/login(\?|$)/);
}

/**
 * Ticks the self-hosted captcha from the keyboard and waits until its web workers have solved the
 * proof of work and it shows the verified state. Space, not check(): the box stays unticked while
 * the workers search and is ticked once verified.
 */
export async function solveCaptcha(page: Page): Promise<void> {
  const captcha = page.getByTestId('captcha');
  const box = captcha.getByRole('checkbox', { name: 'I am not a robot' });
  await box.focus();
  await page.keyboard.press('Space');
  await expect(captcha.getByText('Verified', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(box).toBeChecked();
}
