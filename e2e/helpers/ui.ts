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
