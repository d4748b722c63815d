import crypto from 'node:crypto';
import { expect, test } from './fixtures';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink } from './helpers/api';
import { signInThroughApi } from './helpers/axe';
import { pageWidth } from './helpers/session';
import { demoAccount } from './helpers/demo';
import { textsOf } from './helpers/texts';

test('a product manager uploads an artifact from the version modal; a token made on the product page uploads another', async ({
  page,
}) => {
  const t = await textsOf('en');
  const admin = await apiSession(demoAccount('admin'));
  const { user, welcomeLink } = await createStaffUser(admin, {
    label: 'artifacts-pm',
    type: 'productManager',
    fullname: 'Artifacts Manager',
    preferredLocale: 'en',
  });
  const password = newPassword();
  await setPasswordFromLink(welcomeLink, password);
  const key = `artifacts-${Date.now().toString(36)}`;
  const created = await admin.post('/api/products', {
    data: { key, name: `Artifacts ${key}`, description: 'Artifacts journey' },
  });
  expect(created.status(), await created.text()).toBe(201);
  await admin.dispose();
  const manager = await apiSession({ email: user.email, password });
  const version = await manager.post(`/api/products/${key}/versions`, {
    data: { title: 'Upload release', semVer: '1.0.0', description: 'Notes' },
  });
  expect(version.status(), await version.text()).toBe(201);
  const versionId = ((await version.json()) as { id: number }).id;
  await manager.dispose();

  await signInThroughApi(page, { email: user.email, password });
  await page.goto(`/en/products/${key}`);
  await page.locator('[data-testid="version-row"][data-semver="1.0.0"]').getByTestId('version-edit').click();
  const dialog = page.getByRole('dialog');
  const linux = dialog.getByTestId('artifact-linux');
  const content = crypto.randomBytes(3 * 1024 * 1024);
  await linux.locator('input[type="file"]').setInputFiles({
    name: 'tool-1.0.0-linux.tar.gz',
    mimeType: 'application/gzip',
    buffer: content,
  });
  await expect(page.getByTestId('notification-success')).toContainText(
    t('artifacts.uploaded', { file: 'tool-1.0.0-linux.tar.gz' }),
  );
  await expect(linux).toContainText('tool-1.0.0-linux.tar.gz');
  await expect(linux).toContainText(crypto.createHash('sha256').update(content).digest('hex').slice(0, 12));

  // a second platform, uploaded then removed, on a phone's width and with the keyboard
  await page.setViewportSize({ width: 390, height: 844 });
  const osx = dialog.getByTestId('artifact-osx');
  await osx.locator('input[type="file"]').setInputFiles({
    name: 'tool-1.0.0.dmg',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('macOS build'),
  });
  await expect(osx).toContainText('tool-1.0.0.dmg');
  const remove = osx.getByRole('button', {
    name: t('artifacts.removeLabel', { file: 'tool-1.0.0.dmg', platform: 'macOS' }),
  });
  await remove.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: t('artifacts.removeTitle') });
  await expect(confirm).toContainText(
    t('artifacts.removeConfirm', { file: 'tool-1.0.0.dmg', platform: 'macOS', version: '1.0.0' }),
  );
  // Escape answers the question only: the version modal stays
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(dialog.getByTestId('artifacts-panel')).toBeVisible();
  await expect(remove).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(confirm.getByTestId('artifact-remove-yes')).toBeInViewport({ ratio: 1 });
  expect(await pageWidth(page)).toEqual({ scrollWidth: 390, innerWidth: 390 });
  await confirm.getByTestId('artifact-remove-yes').click();
  await expect(
    page.getByTestId('notification-success').filter({ hasText: t('artifacts.removed', { file: 'tool-1.0.0.dmg' }) }),
  ).toBeVisible();
  await expect(osx).not.toContainText('tool-1.0.0.dmg');
  await expect(osx.getByRole('button', { name: t('artifacts.uploadLabel', { platform: 'macOS' }) })).toBeFocused();
  await expect(linux).toContainText('tool-1.0.0-linux.tar.gz');
  expect(await pageWidth(page)).toEqual({ scrollWidth: 390, innerWidth: 390 });
  const stored = await page.request.get(`/api/versions/${versionId}`);
  expect(((await stored.json()) as { artifacts: { platform: string }[] }).artifacts.map((a) => a.platform)).toEqual([
    'linux',
  ]);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.keyboard.press('Escape');

  // a token made on the product page uploads the Windows build, as a pipeline's curl -T does
  await page.getByTestId('product-token-add').click();
  const tokenDialog = page.getByRole('dialog', { name: t('productTokens.add') });
  await tokenDialog.getByLabel(t('productTokens.columns.name')).fill('Journey pipeline');
  await tokenDialog.getByRole('button', { name: t('productTokens.create') }).click();
  const token = (await page.getByTestId('product-token-value').textContent()) ?? '';
  expect(token).toMatch(/^pt_/);
  await expect(page.getByTestId('product-token-curl')).toContainText(`Bearer ${token}`);
  await page.getByRole('button', { name: t('productTokens.done') }).click();
  const upload = await page.request.fetch(`/api/versions/${versionId}/artifacts/windows?fileName=setup.exe`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    data: Buffer.from('windows build'),
  });
  expect(upload.status(), await upload.text()).toBe(200);
  await expect(page.getByTestId('product-token-row')).toHaveCount(1);
});
