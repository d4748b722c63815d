import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInThroughApi } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';

// Focus moves with the dialogs' and menus' transitions as most users see them, not only the reduced
// motion the other journeys use (playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

/**
 * WAI-ARIA dialog pattern, for every dialog of the portal: opened from the keyboard it takes the
 * focus, Tab and Shift+Tab stay inside it, Escape closes it and the focus goes back to its opener.
 */

/**
 * How many presses of Tab (and of Shift+Tab) each dialog is walked through: every control it holds
 * and two more, so the focus wraps around at least once; at most this many.
 */
const MAX_TABS = 25;

/** Whether the focus is inside the element (the element itself included). */
function holdsFocus(element: Locator): Promise<boolean> {
  return element.evaluate((node) => node.contains(document.activeElement));
}

function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return '(the page itself)';
    return `<${element.tagName.toLowerCase()}> ${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}`;
  });
}

interface FocusWatch {
  presses: number;
  left: string | null;
  stop: () => void;
}

/**
 * Presses `key` `presses` times in the dialog. The page itself watches the focus meanwhile (a
 * listener on every focus change, counting the presses), so the walk makes one round trip per press
 * instead of two; answers where the focus went the first time it left the dialog, or null.
 */
async function tabThrough(page: Page, dialog: Locator, key: string, presses: number): Promise<string | null> {
  await dialog.evaluate((node) => {
    const describe = (element: Element | null) =>
      !element || element === document.body
        ? '(the page itself)'
        : `<${element.tagName.toLowerCase()}> ${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}`;
    const watch: FocusWatch = { presses: 0, left: null, stop: () => undefined };
    const leave = (element: Element | null) => {
      if (watch.left === null) watch.left = `pressed ${watch.presses} times leaves it for ${describe(element)}`;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Tab') watch.presses++;
    };
    const onFocusIn = (event: FocusEvent) => {
      if (!node.contains(event.target as Node)) leave(event.target as Element);
    };
    // the focus dropped to the page itself (no element outside takes it)
    const onFocusOut = (event: Event) => {
      if ((event as FocusEvent).relatedTarget === null)
        queueMicrotask(() => !node.contains(document.activeElement) && leave(null));
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('focusin', onFocusIn, true);
    node.addEventListener('focusout', onFocusOut, true);
    watch.stop = () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('focusin', onFocusIn, true);
      node.removeEventListener('focusout', onFocusOut, true);
    };
    (window as unknown as { focusWatch: FocusWatch }).focusWatch = watch;
  });
  for (let press = 1; press <= presses; press++) await page.keyboard.press(key);
  return dialog.evaluate((node) => {
    const watch = (window as unknown as { focusWatch: FocusWatch }).focusWatch;
    watch.stop();
    if (watch.left === null && !node.contains(document.activeElement)) return 'ends outside it';
    return watch.left;
  });
}

/** The controls of the dialog that Tab reaches (enabled, shown, not taken out of the order). */
function tabbableCount(dialog: Locator): Promise<number> {
  return dialog.evaluate(
    (node) =>
      [
        ...node.querySelectorAll<HTMLElement>(
          'a[href], button, input, select, textarea, [tabindex], [contenteditable="true"]',
        ),
      ].filter(
        (element) =>
          element.tabIndex >= 0 &&
          !(element as HTMLButtonElement).disabled &&
          element.getClientRects().length > 0 &&
          getComputedStyle(element).visibility !== 'hidden',
      ).length,
  );
}

/**
 * Opens the dialog with the keyboard from `opener`, walks it with Tab and Shift+Tab, closes it with
 * Escape; answers the problems found (none for a dialog that behaves).
 */
async function walkDialog(page: Page, opener: Locator, what: string): Promise<string[]> {
  const problems: string[] = [];
  await opener.scrollIntoViewIfNeeded();
  await opener.focus();
  await expect(opener, `${what}: its opener takes the focus`).toBeFocused();
  // Over another dialog, the last one is that one until this one shows: wait for one more.
  const dialogs = page.getByRole('dialog');
  const before = await dialogs.count();
  await page.keyboard.press('Enter');
  await expect(dialogs, `${what}: opens`).toHaveCount(before + 1);
  const newest = dialogs.last();
  // This dialog itself, not whichever is last: over another one, that one stays once this one closes.
  const labelledBy = await newest.getAttribute('aria-labelledby');
  const dialog = labelledBy ? page.locator(`[role="dialog"][aria-labelledby="${labelledBy}"]`) : newest;
  // Mantine moves the focus once its opening transition has started.
  await expect
    .poll(() => holdsFocus(dialog), { message: `${what}: takes the focus`, timeout: 3_000 })
    .toBe(true)
    .catch(async () => problems.push(`${what}: the focus stays on ${await focusedElement(page)}`));
  const presses = Math.min(MAX_TABS, (await tabbableCount(dialog)) + 2);
  for (const key of ['Tab', 'Shift+Tab']) {
    const left = await tabThrough(page, dialog, key, presses);
    if (left !== null) problems.push(`${what}: ${key} ${left}`);
  }
  // On a combobox whose list is open, the first Escape closes the list (WAI-ARIA combobox pattern).
  const listOpen = await page.evaluate(() => {
    const element = document.activeElement;
    return element?.getAttribute('aria-expanded') === 'true' || element?.hasAttribute('data-expanded') === true;
  });
  if (listOpen) await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(dialog, `${what}: Escape closes it`).toBeHidden();
  await expect(opener, `${what}: the focus is back on its opener`).toBeFocused();
  return problems;
}

/** Signs the admin in at the desktop's width; answers the walk's helpers and the problems they find. */
async function staffWalk(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughApi(page, demoAccount('admin'));
  const problems: string[] = [];
  const visit = async (path: string, ready: Locator) => {
    await page.goto(path);
    await expect(ready.first()).toBeVisible();
    // The top bar's menus come once the page has painted, their stand-ins replaced then: the walk
    // starts on the settled page, so that the bell it opens is the one that stays.
    await expect(page.getByTestId('user-menu')).toHaveAttribute('aria-haspopup', 'menu');
  };
  const walk = async (opener: Locator, what: string) => {
    if ((await opener.count()) === 0) {
      problems.push(`${what}: no opener on the page`);
      return;
    }
    problems.push(...(await walkDialog(page, opener.first(), what)));
  };
  return { problems, visit, walk };
}

// The staff screens' dialogs in three journeys, so that the two workers share them.
test.describe('dialogs and the keyboard', () => {
  test.describe.configure({ timeout: 180_000 });

  test('the dialogs of the users and customers lists take the focus, keep it, and give it back', async ({ page }) => {
    const { problems, visit, walk } = await staffWalk(page);
    await visit('/en/users', page.getByTestId('user-row'));
    await walk(page.getByTestId('users-add'), 'user modal (create)');
    await walk(page.getByTestId('user-edit'), 'user modal (edit)');

    await visit('/en/customers', page.getByTestId('customer-card'));
    await walk(page.getByTestId('customers-add'), 'customer modal (create)');

    await page.setViewportSize({ width: 390, height: 844 });
    // the burger renders once the layout has followed the width (a media-query hook)
    await expect(page.getByTestId('nav-burger')).toBeVisible();
    await walk(page.getByTestId('nav-burger'), 'top bar menu (phone)');

    expect(problems, problems.join('\n')).toEqual([]);
  });

  test("the dialogs of a customer's page take the focus, keep it, and give it back", async ({ page }) => {
    const { problems, visit, walk } = await staffWalk(page);
    const list = (await (
      await page.request.get(`/api/customers?filter=${encodeURIComponent(DEMO_CUSTOMER_NAME)}`)
    ).json()) as {
      data: { id: number }[];
    };
    await visit(`/en/accounts/${list.data[0].id}`, page.getByTestId('account-edit'));
    await walk(page.getByTestId('account-edit'), 'customer modal (edit)');
    await walk(page.getByTestId('account-executive-change'), 'account executive modal');
    await walk(page.getByTestId('licence-add'), 'licence modal (add)');
    await walk(page.getByTestId('licence-renew'), 'licence modal (renew)');
    await walk(page.getByTestId('licence-customize'), 'customization modal');
    await walk(page.getByTestId('members-add'), 'members modal (invite)');
    await walk(page.getByTestId('member-edit'), 'members modal (edit)');
    await walk(page.getByTestId('invitation-cancel'), 'invitation cancel confirmation');

    expect(problems, problems.join('\n')).toEqual([]);
  });

  test('the dialogs of the products screens take the focus, keep it, and give it back', async ({ page }) => {
    const { problems, visit, walk } = await staffWalk(page);
    await visit('/en/products', page.getByTestId('product-item'));
    await walk(page.getByTestId('product-add'), 'product modal (add)');

    // a token to revoke: the demo data has none
    const created = await page.request.post('/api/products/graph-server/tokens', {
      data: { name: 'Dialog walk token' },
    });
    expect(created.status()).toBe(201);
    await visit('/en/products/graph-server', page.getByTestId('version-row'));
    await walk(page.getByTestId('notification-centre'), 'notification centre');
    await walk(page.getByTestId('product-edit'), 'product modal (edit)');
    await walk(page.getByTestId('version-add'), 'version modal (add)');
    await walk(page.getByTestId('version-edit'), 'version modal (edit)');
    await walk(page.getByTestId('version-publish'), 'publish confirmation');
    await walk(page.getByTestId('product-token-add'), 'product token modal');
    await walk(
      page.getByTestId('product-token-row').getByRole('button', { name: /Dialog walk token/ }),
      'token revoke confirmation',
    );

    // A confirmation over a modal: removing a file from an unpublished version (a published one keeps its files).
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.locator('[data-testid="version-row"][data-semver="4.1.1"]').getByTestId('version-edit').click();
    const versionModal = page.getByRole('dialog').filter({ has: page.getByTestId('artifacts-panel') });
    const remove = versionModal.locator('[data-testid^="artifact-remove-"]');
    await expect(remove.first(), 'the unpublished demo version 4.1.1 has files').toBeVisible();
    problems.push(...(await walkDialog(page, remove.first(), 'file removal confirmation (over the version modal)')));
    await page.keyboard.press('Escape');
    await expect(versionModal).toBeHidden();

    expect(problems, problems.join('\n')).toEqual([]);
  });
});
