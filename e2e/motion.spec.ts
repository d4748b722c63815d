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

interface Watch {
  /** how many times the menu's dropdown was seen appearing or changing */
  menus: number;
  /** the transition durations it was given meanwhile, in milliseconds */
  transitions: number[];
}

/**
 * Opens the user menu and answers what the watch saw of its dropdown while it appeared: how often it
 * was seen, and the transitions Mantine wrote into its style.
 */
async function watchTheMenuOpen(page: Page): Promise<Watch> {
  await page.evaluate(() => {
    const watch: Watch = { menus: 0, transitions: [] };
    (window as unknown as { __watch: Watch }).__watch = watch;
    const note = (node: Node) => {
      if (!(node instanceof HTMLElement)) return;
      const menu = node.matches('[role="menu"]') ? node : node.querySelector<HTMLElement>('[role="menu"]');
      if (!menu) return;
      watch.menus++;
      const duration = menu.style.transitionDuration;
      if (duration) watch.transitions.push(Number.parseFloat(duration) * (duration.endsWith('ms') ? 1 : 1000));
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
  return page.evaluate(() => (window as unknown as { __watch: Watch }).__watch);
}

for (const reducedMotion of ['no-preference', 'reduce'] as const) {
  test.describe(`with reducedMotion ${reducedMotion}`, () => {
    test.use({ reducedMotion });

    test(`the user menu opens ${reducedMotion === 'reduce' ? 'without' : 'with'} its transition`, async ({ page }) => {
      await signInThroughApi(page, demoAccount('admin'));
      await page.goto('/en/settings');
      await expect(page.getByRole('heading', { name: 'Settings', exact: true })).toBeVisible();
      const watch = await watchTheMenuOpen(page);
      // the watch saw the dropdown come, so what it says of its transitions is about it
      expect(watch.menus).toBeGreaterThan(0);
      const longest = Math.max(0, ...watch.transitions);
      if (reducedMotion === 'reduce') expect(longest).toBe(0);
      else expect(longest).toBeGreaterThan(0);
    });
  });
}
