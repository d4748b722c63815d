import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';

/** The demo customer's page, by the id the customer list gives. */
async function openDemoCustomer(page: Page): Promise<void> {
  const answer = await page.request.get(`/api/customers?filter=${encodeURIComponent(DEMO_CUSTOMER_NAME)}`);
  expect(answer.status()).toBe(200);
  const { data } = (await answer.json()) as { data: { id: number; name: string }[] };
  const customer = data.find((c) => c.name === DEMO_CUSTOMER_NAME)!;
  await page.goto(`/en/accounts/${customer.id}`);
  await expect(page.getByRole('heading', { level: 1, name: DEMO_CUSTOMER_NAME })).toBeVisible();
}

test('an admin reads a customer’s recent actions, filters them by action and exports what the filter keeps', async ({
  page,
}) => {
  await signInThroughApi(page, demoAccount('admin'));
  await openDemoCustomer(page);
  const section = page.getByTestId('recent-actions-section');
  const rows = section.getByTestId('recent-action');
  const others = (action: string) => section.locator(`[data-testid="recent-action"]:not([data-action="${action}"])`);
  // the demo history is more than a page, newest first; other journeys may have added to it
  await expect(rows).toHaveCount(10);
  await expect(rows.first().locator('time')).toHaveText(/^\d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d$/);
  await section.getByRole('button', { name: /next/i }).click();
  await expect(section.getByText(/Page 2/)).toBeVisible();

  await section.getByLabel('Action', { exact: true }).selectOption({ label: 'Product downloaded' });
  await expect(others('downloadArtifact')).toHaveCount(0);
  await expect(section).toContainText('Downloaded Graph Server 4.1.0 for Linux');
  await expect(section).toContainText('Downloaded Graph Server 4.1.0 for Docker (anonymous download)');
  await expect(section).toContainText('Downloaded Graph Toolkit 2.7.0 for npm');

  await section.getByLabel('Action', { exact: true }).selectOption({ label: 'Invitation accepted' });
  await expect(others('acceptInvitation')).toHaveCount(0);
  await expect(section).toContainText('Joined, invited by Olivia Bennett');
  await expect(section).toContainText('Joined, invited by Bruno Keller');
  const shown = await rows.count();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^recent-actions-ACME7K2P9Q-\d{4}-\d\d-\d\d\.csv$/);
  const csv = fs.readFileSync((await download.path())!);
  expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = csv.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'date,actorEmail,actorKind,actorName,action,productName,productVersion,productPlatform,anonymousDownload,invitationFrom,details',
  );
  if (shown < 10) expect(lines.slice(1)).toHaveLength(shown);
  else expect(lines.length).toBeGreaterThan(10);
  for (const line of lines.slice(1)) expect(line.split(',')[4]).toBe('acceptInvitation');
});

test('a project manager changes a notification flag, and finds it kept after a reload', async ({ page }) => {
  await signInThroughApi(page, demoAccount('businessOwner'));
  await page.goto('/en/settings');
  const block = page.getByTestId('settings-notification-block').filter({ hasText: DEMO_CUSTOMER_NAME });
  await expect(block).toHaveCount(1);
  const flag = block.getByLabel('A new version is released');
  const before = await flag.isChecked();
  const save = async () => {
    await page.getByTestId('settings-profile').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('notification-success')).toBeVisible();
  };
  await flag.setChecked(!before);
  await save();
  await page.reload();
  await expect(flag).toBeChecked({ checked: !before });

  // as it was, for the other journeys
  await flag.setChecked(before);
  await save();
  await page.reload();
  await expect(flag).toBeChecked({ checked: before });
});
