import { expect, type Page } from '@playwright/test';

/**
 * Picks an option of a labelled select, whether the client renders a native <select> or a combobox
 * with a listbox (Mantine's Select).
 */
export async function chooseOption(page: Page, label: string, option: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toBeVisible();
  if ((await field.evaluate((element) => element.tagName)) === 'SELECT') {
    await field.selectOption({ label: option });
    return;
  }
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(field).toHaveValue(option);
}

export async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('menu-settings')).toBeVisible();
}

/**
 * The buttons on screen whose label is cut (its text wider than the box that shows it), each as its
 * test id and text: none ever is (decision 088). The top bar's e-mail may shorten, its whole text in
 * its title and name (`data-shortens`).
 */
export function cutButtonLabels(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    const buttons = document.querySelectorAll<HTMLElement>('button, a.mantine-Button-root, [role="button"]');
    for (const button of buttons) {
      if (button.closest('[data-shortens]') || button.getClientRects().length === 0) continue;
      const boxes = [button, ...button.querySelectorAll<HTMLElement>('.mantine-Button-label')];
      // a pixel of rounding either way is no cut text
      const clipped = boxes.some((box) => box.clientWidth > 0 && box.scrollWidth > box.clientWidth + 1);
      if (!clipped) continue;
      const id = button.getAttribute('data-testid') ?? button.tagName.toLowerCase();
      cut.push(`${id} "${(button.textContent ?? '').trim().slice(0, 60)}"`);
    }
    return cut;
  });
}
