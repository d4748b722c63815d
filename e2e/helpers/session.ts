import { expect, type Page } from '@playwright/test';
import type { Credentials } from './auth';

/**
 * Signs the browser in through the API (the page's own cookie jar), without going through the login
 * page: for journeys about what comes after sign-in.
 */
export async function signInThroughApi(page: Page, credentials: Credentials): Promise<void> {
  const answer = await page.request.post('/api/auth/login', { data: credentials });
  expect(answer.status(), `API sign-in of ${credentials.email}: ${await answer.text()}`).toBe(200);
}

/** Whether the page is wider than its window: the width a phone would have to scroll sideways. */
export function pageWidth(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
}
