import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { Product, Version } from '../common/api/catalogue';
import { secretDownloadPath } from '../common/api/catalogue';
import type { CustomerList, CustomerSummary } from '../common/api/customers';
import type { Licence, LicenceList } from '../common/api/licences';
import { addMonths, utcToday } from '../common/licence-status';
import type { Locale } from '../common/roles';
import { DEMO_CUSTOMER_NAME, DEMO_PASSWORD } from '../server/seed/demo';
import { apiSession } from './helpers/api';
import { expectNoViolations, resize, scan, setPreferredLocale, signInThroughApi, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { textsOf } from './helpers/texts';

/** A Globex project manager of the demo team: the contact of the beta licence. */
const GLOBEX_OWNER = { email: 'grace.lee@globex.example', password: DEMO_PASSWORD };

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

interface World {
  product: Product;
  acme: CustomerSummary;
  globex: CustomerSummary;
  /** the file the product manager uploads, and its sha256 */
  file: { path: string; name: string; bytes: Buffer };
  beta: Version;
  /** 1.0.0, once released through the API */
  stable: Version | null;
}

async function ok<T>(answer: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(answer.status(), `${answer.url()}: ${await answer.text()}`).toBe(status);
  return (await answer.json()) as T;
}

/**
 * A product of the journey's own, licensed stable to Acme Analytics (whose demo technical contact
 * downloads) and beta to Globex Logistics (whose demo project manager sees the beta), with a published
 * beta version that has an artifact. The stable release 1.0.0 is the product manager's: through the
 * pages in the journey about it, through the API (`released`) for the journeys that start after it.
 * Each journey prepares a product of its own, so they can run in any order, on any worker.
 */
async function prepare(options: { released: boolean }): Promise<World> {
  const suffix = `${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;
  const admin = await apiSession(demoAccount('admin'));
  const manager = await apiSession(demoAccount('productManager'));
  try {
    const product = await ok<Product>(
      await admin.post('/api/products', {
        data: {
          key: `journey-${suffix}`,
          name: `Journey Product ${suffix}`,
          description: 'A product of the downloads journey',
          customizationType: 'none',
        },
      }),
      201,
    );
    const byName = async (name: string) => {
      const list = await ok<CustomerList>(await admin.get('/api/customers', { params: { filter: name } }));
      return list.data.find((c) => c.name === name)!;
    };
    const acme = await byName(DEMO_CUSTOMER_NAME);
    const globex = await byName('Globex Logistics');
    const today = utcToday();
    for (const [customer, accessLevel] of [
      [acme, 'stable'],
      [globex, 'beta'],
    ] as const) {
      await ok<Licence>(
        await admin.post(`/api/customers/${customer.id}/licenses`, {
          data: {
            productKey: product.key,
            accessLevel,
            startDate: today,
            endDate: addMonths(today, 12),
            data: { fixedLicenses: 1 },
          },
        }),
        201,
      );
    }

    const beta = await ok<Version>(
      await manager.post(`/api/products/${product.key}/versions`, {
        data: { title: 'Preview', type: 'beta', semVer: '2.0.0-beta.1', description: 'A **preview**' },
      }),
      201,
    );
    await ok(
      await manager.put(`/api/versions/${beta.id}/artifacts/linux`, {
        params: { fileName: 'preview.tar.gz' },
        data: crypto.randomBytes(2048),
        headers: { 'content-type': 'application/octet-stream' },
      }),
    );
    await ok(await manager.patch(`/api/versions/${beta.id}`, { data: { published: true } }));

    const name = `journey-${suffix}-linux.tar.gz`;
    const bytes = crypto.randomBytes(3 * 1024 * 1024 + 17);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'portal-downloads-')), name);
    fs.writeFileSync(file, bytes);

    let stable: Version | null = null;
    if (options.released) {
      stable = await ok<Version>(
        await manager.post(`/api/products/${product.key}/versions`, {
          data: { title: 'First release', type: 'stable', semVer: '1.0.0', description: 'The **first** release' },
        }),
        201,
      );
      await ok(
        await manager.put(`/api/versions/${stable.id}/artifacts/linux`, {
          params: { fileName: name },
          data: bytes,
          headers: { 'content-type': 'application/octet-stream' },
        }),
      );
      await ok(await manager.patch(`/api/versions/${stable.id}`, { data: { published: true } }));
    }
    return { product, acme, globex, beta, stable, file: { path: file, name, bytes } };
  } finally {
    await admin.dispose();
    await manager.dispose();
  }
}

const versionsSection = (page: Page) => page.getByTestId('versions-section');
const versionCard = (page: Page, semVer: string) =>
  versionsSection(page).locator(`[data-testid="version-card"][data-semver="${semVer}"]`);

/** Opens the customer page and picks the journey's product in the versions list. */
async function openVersions(page: Page, locale: Locale, customer: CustomerSummary, product: Product) {
  const t = await textsOf(locale);
  await page.goto(`/${locale}/accounts/${customer.id}`);
  const picker = versionsSection(page).getByLabel(t('downloads.product'), { exact: true });
  await expect(picker).toBeVisible();
  await picker.selectOption({ label: product.name });
  await expect(versionsSection(page).getByTestId('version-card').first()).toBeVisible();
}

test.describe('downloads', () => {
  test('a product manager creates a version, uploads its artifact with progress, and publishes it', async ({
    page,
  }) => {
    await releaseThroughTheUi(page, await prepare({ released: false }));
  });

  test('a technical contact with a stable licence downloads the version and copies its URL; the beta stays hidden', async ({
    page,
    context,
  }) => {
    const world = await prepare({ released: true });
    const t = await textsOf('en');
    await signInThroughApi(page, demoAccount('technicalContact'));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openVersions(page, 'en', world.acme, world.product);

    const card = versionCard(page, '1.0.0');
    await expect(card).toBeVisible();
    // the newest the stable licence allows, of a type that needs no word
    await expect(card.getByTestId('version-badge')).toHaveText([t('releases.badges.latest')]);
    await expect(card.getByTestId('version-release-date')).toHaveText(t('downloads.released', { date: utcToday() }));
    await expect(card.getByTestId('version-description').locator('strong')).toHaveText('first');
    // a stable licence never sees the beta
    await expect(versionCard(page, world.beta.semVer)).toHaveCount(0);
    await expect(versionsSection(page).getByTestId('version-card')).toHaveCount(1);

    // the download: the check, then the file itself, byte for byte
    const button = card.getByRole('button', {
      name: t('downloads.downloadLabel', { version: `${world.product.name} 1.0.0`, platform: 'Linux' }),
      // the copy button's name holds the download's ("Copy URL to download …"): the whole name, exactly
      exact: true,
    });
    // started from the keyboard: the button is disabled while busy, which drops the focus to the body,
    // and the focus is on the button again once it is done (issue 32, client/app/keep-focus.ts)
    const disabledWhileBusy = await button.evaluateHandle((node) => {
      const seen = { disabled: false };
      new MutationObserver(() => {
        if ((node as HTMLButtonElement).disabled) seen.disabled = true;
      }).observe(node, { attributes: true, attributeFilter: ['disabled'] });
      return seen;
    });
    await button.focus();
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    expect(download.suggestedFilename()).toBe(world.file.name);
    expect(sha256(fs.readFileSync((await download.path())!))).toBe(sha256(world.file.bytes));
    await expect(button).not.toHaveAttribute('data-loading');
    await expect(button).toBeEnabled();
    expect(
      await disabledWhileBusy.evaluate((seen) => seen.disabled),
      'the download button was disabled while busy',
    ).toBe(true);
    await expect(button).toBeFocused();

    // the copied URL is the licence's secret URL of this version, and it serves the same bytes
    const licences = await ok<LicenceList>(await page.request.get(`/api/customers/${world.acme.id}/licenses`));
    const licence = licences.data.find((l) => l.productKey === world.product.key)!;
    await card
      .getByRole('button', {
        name: t('downloads.copyUrlLabel', { version: `${world.product.name} 1.0.0`, platform: 'Linux' }),
      })
      .click();
    await expect(page.getByTestId('notification-success')).toContainText(t('downloads.copied'));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const origin = new URL(page.url()).origin;
    expect(copied).toBe(origin + secretDownloadPath('linux', world.product.key, '1.0.0', licence.downloadSecret!));
    const byScript = await page.request.get(copied);
    expect(byScript.status()).toBe(200);
    expect(sha256(await byScript.body())).toBe(sha256(world.file.bytes));

    for (const viewport of VIEWPORTS) {
      await resize(page, viewport);
      expectNoViolations(await scan(page, `versions of a technical contact at ${viewport.name}`));
    }
  });

  test('the project manager of a beta licence sees the beta too, in French', async ({ page }) => {
    const world = await prepare({ released: true });
    const t = await textsOf('fr');
    await signInThroughApi(page, GLOBEX_OWNER);
    await setPreferredLocale(page, 'fr');
    try {
      await openVersions(page, 'fr', world.globex, world.product);
      await expect(versionsSection(page).getByTestId('version-card')).toHaveCount(2);
      // newest first: the beta of 2.0.0 before 1.0.0
      await expect(versionsSection(page).getByTestId('version-semver')).toHaveText(['2.0.0-beta.1', '1.0.0']);
      await expect(versionCard(page, world.beta.semVer).getByTestId('version-badge')).toHaveText([
        t('releases.badges.latest'),
        t('releases.badges.preRelease', { type: t('downloads.types.beta') }),
      ]);
      await expect(versionCard(page, '1.0.0').getByTestId('version-badge')).toHaveCount(0);
      await expect(
        versionCard(page, '1.0.0').getByRole('button', {
          name: t('downloads.downloadLabel', { version: `${world.product.name} 1.0.0`, platform: 'Linux' }),
          exact: true,
        }),
      ).toBeVisible();
      expectNoViolations(await scan(page, 'versions of a beta licence in French'));
    } finally {
      await setPreferredLocale(page, 'en');
    }
  });

  test('the product manager sees the downloads of a licence in the analytics', async ({ page }) => {
    const world = await prepare({ released: true });
    // Acme's technical contact downloads 1.0.0 twice: from the portal, and by the licence's secret URL.
    const tech = await apiSession(demoAccount('technicalContact'));
    try {
      const licences = await ok<LicenceList>(await tech.get(`/api/customers/${world.acme.id}/licenses`));
      const licence = licences.data.find((l) => l.productKey === world.product.key)!;
      const fromPortal = await tech.get('/api/download/linux', {
        params: { customerId: world.acme.id, versionId: world.stable!.id },
      });
      expect(fromPortal.status()).toBe(200);
      expect(sha256(await fromPortal.body())).toBe(sha256(world.file.bytes));
      const bySecret = await tech.get(secretDownloadPath('linux', world.product.key, '1.0.0', licence.downloadSecret!));
      expect(bySecret.status()).toBe(200);
      expect(sha256(await bySecret.body())).toBe(sha256(world.file.bytes));
    } finally {
      await tech.dispose();
    }

    const t = await textsOf('en');
    await signInThroughApi(page, demoAccount('productManager'));
    await page.goto('/en/analytics');
    await page.getByLabel(t('analytics.filter.product')).selectOption({ label: world.product.name });
    // the download from the portal and the one by the secret URL, both of the licence of Acme
    await expect(page.getByTestId('analytics-top-customer')).toHaveCount(1);
    await expect(page.getByTestId('analytics-top-customer').locator('td')).toHaveText([DEMO_CUSTOMER_NAME, '2']);
  });
});

/**
 * The product manager's release of 1.0.0 through the product page: the version created in its modal,
 * its Linux build uploaded from the modal's artifacts panel with a progress bar (the upload is slowed
 * so the bar can be seen moving), then published after the confirmation.
 */
async function releaseThroughTheUi(page: Page, world: World) {
  const t = await textsOf('en');
  await signInThroughApi(page, demoAccount('productManager'));
  await page.goto(`/en/products/${world.product.key}`);
  await page.getByRole('button', { name: t('catalogue.addVersion') }).click();
  const create = page.getByRole('dialog', { name: t('catalogue.versionModal.createTitle') });
  await create.getByLabel(t('catalogue.fields.title')).fill('First release');
  await expect(create.getByLabel(t('catalogue.fields.type'))).toHaveValue('stable');
  await create.getByLabel(t('catalogue.fields.semVer')).fill('1.0.0');
  await create.getByLabel(t('catalogue.fields.versionDescription')).fill('The **first** release');
  await create.getByRole('button', { name: t('catalogue.versionModal.create') }).click();
  await expect(create).toHaveCount(0);
  const row = page.locator('[data-testid="version-row"][data-semver="1.0.0"]');
  await expect(row).toContainText(t('catalogue.unpublished'));

  await row.getByRole('button', { name: t('catalogue.editVersion', { version: '1.0.0' }) }).click();
  const edit = page.getByRole('dialog', { name: t('catalogue.versionModal.editTitle', { version: '1.0.0' }) });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1024 * 1024,
  });
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    edit.getByRole('button', { name: t('artifacts.uploadLabel', { platform: 'Linux' }) }).click(),
  ]);
  await chooser.setFiles(world.file.path);
  const progress = edit.getByRole('progressbar', { name: t('artifacts.progressLabel', { platform: 'Linux' }) });
  await expect(progress).toBeVisible();
  await expect
    .poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 20_000 })
    .toBeGreaterThan(0);
  await expect(
    page.getByTestId('notification-success').filter({ hasText: t('artifacts.uploaded', { file: world.file.name }) }),
  ).toBeVisible({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(edit.getByTestId('artifact-linux')).toContainText(world.file.name);
  await page.keyboard.press('Escape');
  await expect(edit).toHaveCount(0);

  await row.getByRole('button', { name: t('catalogue.publishVersion', { version: '1.0.0' }) }).click();
  const confirm = page.getByRole('dialog', { name: t('catalogue.publish.title') });
  await confirm.getByRole('button', { name: t('catalogue.publish.yes') }).click();
  await expect(row).toContainText(utcToday());
  await expect(row.getByRole('button', { name: t('catalogue.publishVersion', { version: '1.0.0' }) })).toHaveCount(0);
}
