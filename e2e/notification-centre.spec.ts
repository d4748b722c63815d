import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import type { NotificationList } from '../common/api/notifications';
import type { VersionList } from '../common/api/catalogue';
import { apiSession, staffUserWithPassword } from './helpers/api';
import { expectNoViolations, resize, scan, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { signInThroughApi, pageWidth } from './helpers/session';
import { textsOf } from './helpers/texts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function ok<T>(answer: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<T> {
  expect(answer.ok(), `${what}: ${answer.status()} ${await answer.text()}`).toBe(true);
  return (await answer.json()) as T;
}

/**
 * A customer of its own with a fresh account executive, whose notification flags are all on (the
 * default), and a licence of Graph Server, which tells the account executive of the new licence; the
 * demo admin downloads twice for it, which tells them of the first download of the product at once
 * (the downloads themselves come in the customer's digest, an hour later: docs/notifications.md).
 * Nothing of the demo data is changed.
 */
async function customerWithDownloads() {
  const executive = await staffUserWithPassword({
    label: 'bell',
    type: 'accountExecutive',
    fullname: 'Bell Watcher',
  });
  const admin = await apiSession(demoAccount('admin'));
  try {
    const customerName = `Bell ${randomUUID().slice(0, 8)}`;
    const customer = await ok<{ id: number }>(
      await admin.post('/api/customers', { data: { name: customerName } }),
      'POST /api/customers',
    );
    await ok(
      await admin.put(`/api/customers/${customer.id}/account-executive`, { data: { userId: executive.user.id } }),
      'PUT account executive',
    );
    await ok(
      await admin.post(`/api/customers/${customer.id}/licenses`, {
        data: { productKey: 'graph-server', accessLevel: 'stable', startDate: day(-1), endDate: day(365), data: {} },
      }),
      'POST licence',
    );
    const versions = await ok<VersionList>(
      await admin.get(`/api/products/graph-server/versions?customerId=${customer.id}&pageLength=100`),
      'GET versions',
    );
    // a version the stable licence allows (the admin's list also holds unpublished and beta ones)
    const version = versions.data.find(
      (v) => v.published && v.type === 'stable' && v.artifacts.some((a) => a.platform === 'linux'),
    );
    if (!version) throw new Error('the demo seed has no Graph Server version for Linux');
    for (let i = 0; i < 2; i++) {
      const download = await admin.get(`/api/download/linux?customerId=${customer.id}&versionId=${version.id}`);
      expect(download.status()).toBe(200);
    }
    const credentials = { email: executive.user.email, password: executive.password };
    // the licence and the first download are told by a job once they commit: wait until both are there
    const watcher = await apiSession(credentials);
    try {
      await expect
        .poll(async () => (await ok<NotificationList>(await watcher.get('/api/notifications'), 'GET')).unread)
        .toBe(2);
    } finally {
      await watcher.dispose();
    }
    return { customerId: customer.id, customerName, semVer: version.semVer, credentials };
  } finally {
    await admin.dispose();
  }
}

test('the bell counts what happened to a customer; opening an entry and "Mark all read" mark them read', async ({
  page,
}) => {
  const t = await textsOf('en');
  const { customerId, customerName, semVer, credentials } = await customerWithDownloads();
  await signInThroughApi(page, credentials);
  await page.goto('/en/about');
  const bell = page.getByTestId('notification-centre');
  await expect(bell).toHaveAttribute('aria-label', t('notificationCentre.openUnread', { count: 2 }));

  // by the keyboard: the popover opens on "Mark all read", newest first, each in words
  await bell.focus();
  await page.keyboard.press('Enter');
  const centre = page.locator('.notification-centre-dropdown');
  await expect(page.getByTestId('notification-centre-mark-read')).toBeFocused();
  const items = centre.getByTestId('notification-centre-item');
  await expect(items).toHaveCount(2);
  const texts = {
    first: t('notification.firstProductDownload', { productName: 'Graph Server', semVer, platform: 'Linux' }),
    licence: t('notification.newProductLicense', { customerName, productName: 'Graph Server' }),
  };
  await expect(items.nth(0)).toContainText(texts.first);
  await expect(items.nth(1)).toContainText(texts.licence);

  // axe on the opened centre, on a desktop and on a phone, where it fits the screen
  const found: string[] = [];
  for (const viewport of VIEWPORTS) {
    await resize(page, viewport);
    await expect(items.first()).toBeVisible();
    found.push(...(await scan(page, `notification centre ${viewport.name}`, ['.notification-centre-dropdown'])));
    const box = (await centre.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    const { scrollWidth, innerWidth } = await pageWidth(page);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  }
  expectNoViolations(found);

  // Escape gives the focus back to the bell
  await page.keyboard.press('Escape');
  await expect(centre).toBeHidden();
  await expect(bell).toBeFocused();

  // following an entry's link goes to its customer's page and marks it read
  await bell.click();
  await centre.getByRole('link', { name: new RegExp(texts.first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).click();
  await expect(page).toHaveURL(new RegExp(`/en/accounts/${customerId}$`));
  await expect(bell).toHaveAttribute('aria-label', t('notificationCentre.openUnread', { count: 1 }));

  // "Mark all read": nothing left unread, here and after a reload
  await bell.click();
  await expect(items.nth(0)).toHaveAttribute('data-status', 'read');
  await page.getByTestId('notification-centre-mark-read').click();
  await expect(bell).toHaveAttribute('aria-label', t('notificationCentre.open'));
  await expect(items.nth(1)).toHaveAttribute('data-status', 'read');
  await page.reload();
  await expect(page.getByTestId('notification-centre')).toHaveAttribute('aria-label', t('notificationCentre.open'));
});
