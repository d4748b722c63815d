import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { Product, Version } from '../common/api/catalogue';
import type { CustomerList, CustomerSummary } from '../common/api/customers';
import type { Licence, LicenceList } from '../common/api/licences';
import { addMonths, utcToday } from '../common/licence-status';
import type { Locale } from '../common/roles';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { apiSession } from './helpers/api';
import { expectNoViolations, resize, scan, setPreferredLocale, signInThroughApi, VIEWPORTS } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { pageWidth } from './helpers/session';
import { textsOf } from './helpers/texts';

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');

interface World {
  product: Product;
  acme: CustomerSummary;
  /** the bytes of 1.1.0's Linux file, the newest the stable licence allows */
  bytes: Buffer;
  fileName: string;
}

async function ok<T>(answer: Awaited<ReturnType<APIRequestContext['get']>>, status = 200): Promise<T> {
  expect(answer.status(), `${answer.url()}: ${await answer.text()}`).toBe(status);
  return (await answer.json()) as T;
}

/**
 * A product of the journey's own, licensed stable to Acme Analytics (whose demo technical contact
 * reads its versions): 1.0.0 and 1.1.0 released with a Linux file each, 1.1.0 with long notes, and a
 * beta above them that the stable licence does not see.
 */
async function prepare(): Promise<World> {
  const suffix = `${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;
  const admin = await apiSession(demoAccount('admin'));
  const manager = await apiSession(demoAccount('productManager'));
  try {
    const product = await ok<Product>(
      await admin.post('/api/products', {
        data: { key: `release-${suffix}`, name: `Release Product ${suffix}`, description: 'Release pages' },
      }),
      201,
    );
    const customers = await ok<CustomerList>(
      await admin.get('/api/customers', { params: { filter: DEMO_CUSTOMER_NAME } }),
    );
    const acme = customers.data.find((c) => c.name === DEMO_CUSTOMER_NAME)!;
    const today = utcToday();
    await ok<Licence>(
      await admin.post(`/api/customers/${acme.id}/licenses`, {
        data: {
          productKey: product.key,
          accessLevel: 'stable',
          startDate: today,
          endDate: addMonths(today, 12),
          data: { fixedLicenses: 1 },
        },
      }),
      201,
    );
    const release = async (
      semVer: string,
      type: string,
      description: string,
      file?: { name: string; bytes: Buffer },
    ) => {
      const version = await ok<Version>(
        await manager.post(`/api/products/${product.key}/versions`, {
          data: { title: `Release ${semVer}`, type, semVer, description },
        }),
        201,
      );
      if (file) {
        await ok(
          await manager.put(`/api/versions/${version.id}/artifacts/linux`, {
            params: { fileName: file.name },
            data: file.bytes,
            headers: { 'content-type': 'application/octet-stream' },
          }),
        );
      }
      await ok(await manager.patch(`/api/versions/${version.id}`, { data: { published: true } }));
    };
    const fileName = `release-${suffix}-linux.tar.gz`;
    const bytes = crypto.randomBytes(1_550_000);
    await release('1.0.0', 'stable', 'The **first** release', {
      name: `old-${fileName}`,
      bytes: crypto.randomBytes(512),
    });
    const longNotes = Array.from({ length: 30 }, (_, i) => `- change number ${i + 1}`).join('\n');
    await release('1.1.0', 'stable', `## What is new\n\n${longNotes}`, { name: fileName, bytes });
    await release('2.0.0-beta.1', 'beta', 'A preview');
    return { product, acme, bytes, fileName };
  } finally {
    await admin.dispose();
    await manager.dispose();
  }
}

const versionsSection = (page: Page) => page.getByTestId('versions-section');
const versionCard = (page: Page, semVer: string) =>
  page.locator(`[data-testid="version-card"][data-semver="${semVer}"]`);

async function openVersions(page: Page, locale: Locale, world: World) {
  const t = await textsOf(locale);
  await page.goto(`/${locale}/accounts/${world.acme.id}`);
  const picker = versionsSection(page).getByLabel(t('downloads.product'), { exact: true });
  await expect(picker).toBeVisible();
  await picker.selectOption({ label: world.product.name });
  await expect(versionCard(page, '1.1.0')).toBeVisible();
}

/** Runs a copied shell command in a folder of its own and answers the folder. */
function runInFolder(command: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-release-'));
  execFileSync('/bin/sh', ['-c', command], { cwd: folder, stdio: 'pipe', timeout: 60_000 });
  return folder;
}

test.describe('release pages', () => {
  test('a technical contact copies the curl command of a file, runs it, and gets the bytes the checksum names', async ({
    page,
    context,
  }) => {
    const world = await prepare();
    const t = await textsOf('en');
    await signInThroughApi(page, demoAccount('technicalContact'));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openVersions(page, 'en', world);
    const name = `${world.product.name} 1.1.0`;

    // the newest the stable licence allows is the latest; the beta is not shown
    const card = versionCard(page, '1.1.0');
    await expect(card.getByTestId('version-badge')).toHaveText([t('releases.badges.latest')]);
    await expect(versionCard(page, '1.0.0').getByTestId('version-badge')).toHaveCount(0);
    await expect(versionCard(page, '2.0.0-beta.1')).toHaveCount(0);
    await expect(card.getByTestId('version-release-date')).toHaveText(t('downloads.released', { date: utcToday() }));
    // long notes are folded, and unfold
    const more = card.getByRole('button', { name: t('releases.notes.moreLabel', { version: name }) });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    await more.click();
    await expect(card.getByRole('button', { name: t('releases.notes.lessLabel', { version: name }) })).toBeVisible();

    // the file, its size and its checksum
    const linux = card.locator('[data-testid="version-artifact"][data-platform="linux"]');
    await expect(linux.getByTestId('artifact-file')).toHaveText(`${world.fileName} · 1.6 MB`);
    const shownSha = (await linux.getByTestId('artifact-sha256').textContent())!;
    expect(shownSha).toBe(sha256(world.bytes));

    // the secret stays masked on screen
    const licences = await ok<LicenceList>(await page.request.get(`/api/customers/${world.acme.id}/licenses`));
    const secret = licences.data.find((l) => l.productKey === world.product.key)!.downloadSecret!;
    await linux
      .getByRole('button', { name: t('releases.commands.toggleLabel', { version: name, platform: 'Linux' }) })
      .click();
    const curl = linux.locator('[data-testid="artifact-command"][data-kind="curl"]');
    await expect(curl.getByTestId('artifact-command-text')).toContainText('secret=••••••••');
    await expect(versionsSection(page)).not.toContainText(secret);

    // the copy carries it, and the command fetches the file
    await curl
      .getByRole('button', {
        name: t('releases.commands.copyLabel', { kind: 'curl', version: name, platform: 'Linux' }),
      })
      .click();
    await expect(page.getByTestId('notification-success')).toContainText(t('releases.commands.copied'));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const origin = new URL(page.url()).origin;
    expect(copied).toContain(`${origin}/api/get/linux/${world.product.key}/1.1.0/?secret=`);
    expect(copied).toContain(encodeURIComponent(secret));
    const folder = runInFolder(copied);
    expect(sha256(fs.readFileSync(path.join(folder, world.fileName)))).toBe(shownSha);

    // the version's checksums, copied from its card, check the file as `sha256sum -c` reads them
    await card.getByRole('button', { name: t('releases.script.copySumsLabel', { version: name }) }).click();
    const sumsUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(sumsUrl).toContain(`${origin}/api/get/sums/${world.product.key}/1.1.0/?secret=`);
    const checked = execFileSync(
      '/bin/sh',
      ['-c', `curl -fsS -o SHA256SUMS '${sumsUrl}' && sha256sum -c --ignore-missing --strict SHA256SUMS`],
      { cwd: folder, encoding: 'utf8', timeout: 60_000 },
    );
    expect(checked).toContain(`${world.fileName}: OK`);

    // revealed on demand
    await versionsSection(page)
      .getByRole('button', { name: t('releases.script.reveal') })
      .click();
    await expect(versionsSection(page).getByTestId('script-secret-value')).toHaveText(secret);
    await expect(versionsSection(page).getByTestId('script-latest-linux-value')).toHaveText(
      `${origin}/api/get/linux/${world.product.key}/latest/?secret=${encodeURIComponent(secret)}`,
    );
    for (const viewport of VIEWPORTS) {
      await resize(page, viewport);
      expectNoViolations(await scan(page, `release page with commands at ${viewport.name}`));
    }
    await resize(page, VIEWPORTS[0]);

    // what changed since 1.0.0: the notes of 1.1.0 only, on a page of its own
    await versionsSection(page).getByLabel(t('releases.since.label')).selectOption('1.0.0');
    await versionsSection(page)
      .getByRole('button', { name: t('releases.since.open') })
      .click();
    await expect(page).toHaveURL(new RegExp(`/en/accounts/${world.acme.id}/changes/${world.product.key}/1\\.0\\.0$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      t('releases.since.title', { product: world.product.name, version: '1.0.0' }),
    );
    await expect(page.getByTestId('version-semver')).toHaveText(['1.1.0']);
    await expect(page.getByText('change number 30')).toBeVisible();
    expectNoViolations(await scan(page, 'what changed since 1.0.0'));
  });

  test('the same in French on a phone, from the keyboard', async ({ page, context }) => {
    const world = await prepare();
    const t = await textsOf('fr');
    await signInThroughApi(page, demoAccount('technicalContact'));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await setPreferredLocale(page, 'fr');
    try {
      await resize(page, { width: 390, height: 844 });
      await openVersions(page, 'fr', world);
      const name = `${world.product.name} 1.1.0`;
      const card = versionCard(page, '1.1.0');
      await expect(card.getByTestId('version-badge')).toHaveText([t('releases.badges.latest')]);
      const linux = card.locator('[data-testid="version-artifact"][data-platform="linux"]');
      // the size in French: a decimal comma and the French unit
      await expect(linux.getByTestId('artifact-file')).toHaveText(
        new RegExp(`${world.fileName.replace(/\./g, '\\.')} · 1,6\\sMo$`),
      );

      const toggle = linux.getByRole('button', {
        name: t('releases.commands.toggleLabel', { version: name, platform: 'Linux' }),
      });
      await toggle.focus();
      await page.keyboard.press('Enter');
      await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      const copy = linux.locator('[data-testid="artifact-command"][data-kind="curl"]').getByRole('button', {
        name: t('releases.commands.copyLabel', { kind: 'curl', version: name, platform: 'Linux' }),
      });
      await copy.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('notification-success')).toContainText(t('releases.commands.copied'));
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      const folder = runInFolder(copied);
      expect(sha256(fs.readFileSync(path.join(folder, world.fileName)))).toBe(sha256(world.bytes));

      // nothing wider than the phone, with the commands and the secret shown
      await versionsSection(page)
        .getByRole('button', { name: t('releases.script.reveal') })
        .click();
      const { scrollWidth, innerWidth } = await pageWidth(page);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      expectNoViolations(await scan(page, 'release page in French at 390 px'));

      await versionsSection(page).getByLabel(t('releases.since.label')).selectOption('1.0.0');
      await versionsSection(page)
        .getByRole('button', { name: t('releases.since.open') })
        .press('Enter');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        t('releases.since.title', { product: world.product.name, version: '1.0.0' }),
      );
      await expect(page.getByTestId('version-semver')).toHaveText(['1.1.0']);
      const changed = await pageWidth(page);
      expect(changed.scrollWidth).toBeLessThanOrEqual(changed.innerWidth);
      expectNoViolations(await scan(page, 'what changed, in French at 390 px'));
    } finally {
      await setPreferredLocale(page, 'en');
    }
  });
});
