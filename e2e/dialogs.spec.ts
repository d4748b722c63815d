import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInThroughApi } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';

/**
 * WAI-ARIA dialog pattern, for every dialog of the portal: opened from the keyboard it takes the
 * focus, Tab and Shift+Tab stay inside it, Escape closes it and the focus goes back to its opener.
 */

/** How many presses of Tab (and of Shift+Tab) each dialog is walked through: more than its controls. */
const TABS = 25;

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

/**
 * Opens the dialog with the keyboard from `opener`, walks it with Tab and Shift+Tab, closes it with
 * Escape; answers the problems found (none for a dialog that behaves).
 */
async function walkDialog(page: Page, opener: Locator, what: string): Promise<string[]> {
  const problems: string[] = [];
  await opener.scrollIntoViewIfNeeded();
  await opener.focus();
  await expect(opener, `${what}: its opener takes the focus`).toBeFocused();
  await page.keyboard.press('Enter');
  const newest = page.getByRole('dialog').last();
  await expect(newest, `${what}: opens`).toBeVisible();
  // This dialog itself, not whichever is last: over another one, that one stays once this one closes.
  const labelledBy = await newest.getAttribute('aria-labelledby');
  const dialog = labelledBy ? page.locator(`[role="dialog"][aria-labelledby="${labelledBy}"]`) : newest;
  // Mantine moves the focus once its opening transition has started.
  await expect
    .poll(() => holdsFocus(dialog), { message: `${what}: takes the focus`, timeout: 3_000 })
    .toBe(true)
    .catch(async () => problems.push(`${what}: the focus stays on ${await focusedElement(page)}`));
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let press = 1; press <= TABS; press++) {
      await page.keyboard.press(key);
      if (!(await holdsFocus(dialog))) {
        problems.push(`${what}: ${key} pressed ${press} times leaves it for ${await focusedElement(page)}`);
        break;
      }
    }
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

test.describe('dialogs and the keyboard', () => {
  test.describe.configure({ timeout: 300_000 });

  test('every dialog of the staff screens takes the focus, keeps it, and gives it back', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signInThroughApi(page, demoAccount('admin'));
    const problems: string[] = [];
    const visit = async (path: string, ready: Locator) => {
      await page.goto(path);
      await expect(ready.first()).toBeVisible();
    };
    const walk = async (opener: Locator, what: string) => {
      if ((await opener.count()) === 0) {
        problems.push(`${what}: no opener on the page`);
        return;
      }
      problems.push(...(await walkDialog(page, opener.first(), what)));
    };

    await visit('/en/users', page.getByTestId('user-row'));
    await walk(page.getByTestId('users-add'), 'user modal (create)');
    await walk(page.getByTestId('user-edit'), 'user modal (edit)');

    await visit('/en/customers', page.getByTestId('customer-card'));
    await walk(page.getByTestId('customers-add'), 'customer modal (create)');

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

    await page.setViewportSize({ width: 390, height: 844 });
    // the burger renders once the layout has followed the width (a media-query hook)
    await expect(page.getByTestId('nav-burger')).toBeVisible();
    await walk(page.getByTestId('nav-burger'), 'top bar menu (phone)');

    expect(problems, problems.join('\n')).toEqual([]);
  });
});
