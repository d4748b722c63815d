import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';

/**
 * The journeys run as a user who prefers reduced motion (playwright.config.ts); the portal honours
 * the preference (theme respectReducedMotion): a menu, dialog or toast appears without its
 * transition. This journey opens the user menu both ways, so that the default motion is seen to work
 * as well as its absence.
 */

/**
 * Opens the user menu and answers the longest transition the menu's dropdown was given while it
 * appeared (Mantine writes it into the element's style), in milliseconds.
 */
async function longestTransitionOfTheMenu(page: Page): Promise<number> {
  await page.evaluate(() => {
    const seen: number[] = [];
    (window as unknown as { __transitions: number[] }).__transitions = seen;
    const note = (node: Node) => {
      if (!(node instanceof HTMLElement)) return;
      const menu = node.matches('[role="menu"]') ? node : node.querySelector<HTMLElement>('[role="menu"]');
      const duration = menu?.style.transitionDuration;
      if (duration) seen.push(Number.parseFloat(duration) * (duration.endsWith('ms') ? 1 : 1000));
    };
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes') note(record.target);
        record.addedNodes.forEach(note);
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['style'] });
  });
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('menu-settings')).toBeVisible();
  return page.evaluate(() => Math.max(0, ...(window as unknown as { __transitions: number[] }).__transitions));
}

for (const reducedMotion of ['no-preference', 'reduce'] as const) {
  test.describe(`with reducedMotion ${reducedMotion}`, () => {
    test.use({ reducedMotion });

    test(`the user menu opens ${reducedMotion === 'reduce' ? 'without' : 'with'} its transition`, async ({ page }) => {
      await signInThroughApi(page, demoAccount('admin'));
      await page.goto('/en/settings');
      await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
      const longest = await longestTransitionOfTheMenu(page);
      if (reducedMotion === 'reduce') expect(longest).toBe(0);
      else expect(longest).toBeGreaterThan(0);
    });
  });
}
