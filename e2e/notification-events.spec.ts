import { randomInt } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { JobCountsList } from '../common/api/jobs';
import type { NotificationList } from '../common/api/notifications';
import type { MyMemberships } from '../common/api/settings';
import type { Locale } from '../common/roles';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { apiSession } from './helpers/api';
import { expectNoViolations, scan } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { type Mail, linkIn, mailsNow, waitForMail } from './helpers/mailbox';
import { signInThroughApi } from './helpers/session';
import { textsOf } from './helpers/texts';

/**
 * A new version told to the members who asked for it (docs/notifications.md, notifyNewVersion), from
 * the settings page to the mail and the bell. The demo customer holds a beta licence of Graph Toolkit,
 * which allows its stable versions; Graph Server's versions stay the demo's (tables.spec.ts counts on
 * them). The demo business owner turns new-version notices off, the demo technical contact keeps them:
 * a product manager publishes a version, which reaches the one and not the other.
 */
const PRODUCT = { key: 'graph-toolkit', name: 'Graph Toolkit' };

/**
 * What the new-version mail says, written out here rather than taken from the portal's templates (French
 * puts a no-break space before a colon).
 */
const MAIL: Record<Locale, { subject: (semVer: string) => string; intro: (semVer: string) => string }> = {
  en: {
    subject: (semVer) => `${PRODUCT.name} ${semVer} is available`,
    intro: (semVer) => `A new version of ${PRODUCT.name} is available to download: ${semVer}.`,
  },
  fr: {
    subject: (semVer) => `${PRODUCT.name} ${semVer} est disponible`,
    intro: (semVer) => `Une nouvelle version de ${PRODUCT.name} peut être téléchargée\u00A0: ${semVer}.`,
  },
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function ok<T>(answer: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<T> {
  expect(answer.ok(), `${what}: ${answer.status()} ${await answer.text()}`).toBe(true);
  return (await answer.json()) as T;
}

/** The caller's membership of the demo customer, with its flags. */
async function demoMembership(session: APIRequestContext) {
  const mine = await ok<MyMemberships>(await session.get('/api/members/mine'), 'GET /api/members/mine');
  const membership = mine.data.find((m) => m.customerName === DEMO_CUSTOMER_NAME);
  if (!membership) throw new Error(`the demo account is no member of ${DEMO_CUSTOMER_NAME}`);
  return membership;
}

async function notificationsOf(session: APIRequestContext): Promise<NotificationList> {
  return ok<NotificationList>(await session.get('/api/notifications?pageLength=100'), 'GET /api/notifications');
}

/** The header of a raw mail, its folded lines unfolded (RFC 5322 2.2.3). */
function header(mail: Mail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1].trim();
}

/** The business owner unticks "A new version is released" for the demo customer by the keyboard, and saves. */
async function turnNewVersionsOff(page: Page): Promise<string[]> {
  const t = await textsOf('en');
  await signInThroughApi(page, demoAccount('businessOwner'));
  await page.goto('/en/settings');
  const block = page.getByTestId('settings-notification-block').filter({ hasText: DEMO_CUSTOMER_NAME });
  const flag = block.getByLabel(t('notificationSettings.flags.notifyNewVersion'), { exact: true });
  await expect(flag).toBeChecked();
  await flag.focus();
  await page.keyboard.press('Space');
  await expect(flag).not.toBeChecked();
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PATCH' && /^\/api\/members\/\d+\/settings$/.test(new URL(r.url()).pathname),
  );
  await page
    .getByTestId('settings-profile')
    .getByRole('button', { name: t('settings.save'), exact: true })
    .click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByTestId('notification-success')).toContainText(t('settings.saved'));
  await expect(flag).not.toBeChecked();
  return scan(page, 'settings after saving');
}

/** The product manager adds a stable version of the product on its page and publishes it; answers when. */
async function publishVersion(page: Page, semVer: string): Promise<Date> {
  const t = await textsOf('en');
  await signInThroughApi(page, demoAccount('productManager'));
  await page.goto(`/en/products/${PRODUCT.key}`);
  await expect(page.getByRole('heading', { level: 1, name: PRODUCT.name })).toBeVisible();
  await page.getByRole('button', { name: t('catalogue.addVersion') }).click();
  const dialog = page.getByRole('dialog', { name: t('catalogue.versionModal.createTitle') });
  await dialog.getByLabel(t('catalogue.fields.title')).fill(`${PRODUCT.name} ${semVer}`);
  await dialog.getByLabel(t('catalogue.fields.semVer')).fill(semVer);
  await dialog.getByLabel(t('catalogue.fields.versionDescription')).fill('- Told to the members who asked');
  await expect(dialog.getByLabel(t('catalogue.fields.type'))).toHaveValue('stable');
  await dialog.getByRole('button', { name: t('catalogue.versionModal.create') }).click();
  await expect(dialog).toBeHidden();
  const row = page.locator(`[data-testid="version-row"][data-semver="${semVer}"]`);
  await expect(row).toContainText(t('catalogue.unpublished'));
  await row.getByTestId('version-publish').click();
  const confirm = page.getByTestId('version-publish-confirm');
  await expect(confirm).toContainText(t('catalogue.publish.confirm', { version: semVer }));
  const publishedAt = new Date();
  await confirm.getByRole('button', { name: t('catalogue.publish.yes') }).click();
  await expect(confirm).toBeHidden();
  await expect(row.getByTestId('version-publish')).toHaveCount(0);
  return publishedAt;
}

/** The admin's Background work page: both kinds of the journey's work have completed jobs. */
async function backgroundWork(page: Page): Promise<string[]> {
  const t = await textsOf('en');
  await signInThroughApi(page, demoAccount('admin'));
  await page.goto('/en/background-work');
  await expect(page.getByRole('heading', { level: 1, name: t('backgroundWork.title') })).toBeVisible();
  const completed = (kind: string) =>
    page
      .getByTestId('job-count-row')
      .filter({ has: page.getByRole('rowheader', { name: kind, exact: true }) })
      .getByRole('cell')
      .nth(3);
  for (const kind of ['notifications.fanout', 'mail.deliver']) {
    // the counts refresh on their own; a reload reads them at once
    await expect(async () => {
      await expect(completed(kind)).toHaveText(/^\d+$/, { timeout: 2_000 });
      expect(Number(await completed(kind).textContent()), `${kind} completed`).toBeGreaterThan(0);
    }).toPass({ timeout: 15_000 });
  }
  return scan(page, '/background-work');
}

for (const locale of ['en', 'fr'] as const) {
  test(`a published version reaches the technical contact by mail and in the bell (${locale}), not the owner who turned it off`, async ({
    page,
    baseURL,
  }) => {
    const t = await textsOf(locale);
    const owner = demoAccount('businessOwner');
    const tech = demoAccount('technicalContact');
    const semVer = `3.${randomInt(1, 1_000_000)}.0`;
    const ownerSession = await apiSession(owner);
    const techSession = await apiSession(tech);
    const adminSession = await apiSession(demoAccount('admin'));
    const ownerMembership = await demoMembership(ownerSession);
    const customerId = (await demoMembership(techSession)).customerId;
    const found: string[] = [];
    try {
      expect((await demoMembership(techSession)).settings.notifyNewVersion).toBe(true);
      if (locale !== 'en') {
        const answer = await techSession.patch('/api/auth/me', { data: { preferredLocale: locale } });
        expect(answer.status(), await answer.text()).toBe(200);
      }
      const unreadBefore = (await notificationsOf(techSession)).unread;

      // 1. the business owner turns new-version notices off for the demo customer
      found.push(...(await turnNewVersionsOff(page)));
      expect((await demoMembership(ownerSession)).settings.notifyNewVersion).toBe(false);

      // 2. a product manager adds and publishes a stable version, through the product's page
      const publishedAt = await publishVersion(page, semVer);

      // 3. the technical contact's mail, in their language, with its links and List-Unsubscribe
      const subject = MAIL[locale].subject(semVer);
      const mail = await waitForMail({
        to: tech.email,
        since: publishedAt,
        subject: new RegExp(`^${escape(subject)}$`),
      });
      expect(mail.subject).toBe(subject);
      expect(mail.text).toContain(MAIL[locale].intro(semVer));
      const origin = new URL(baseURL!).origin;
      const customerPage = linkIn(mail, new RegExp(`/${locale}/accounts/${customerId}$`));
      expect(customerPage.href).toBe(`${origin}/${locale}/accounts/${customerId}`);
      expect(header(mail, 'List-Unsubscribe')).toBe(`<${origin}/${locale}/settings>`);

      // ... and the entry in their notification centre, from the page the mail links to
      await signInThroughApi(page, tech);
      await page.goto(customerPage.href);
      await expect(page.getByRole('heading', { level: 1, name: DEMO_CUSTOMER_NAME })).toBeVisible();
      const bell = page.getByTestId('notification-centre');
      await expect(bell).toHaveAttribute('aria-label', t('notificationCentre.openUnread', { count: unreadBefore + 1 }));
      await bell.click();
      const entry = page.locator('.notification-centre-dropdown').getByTestId('notification-centre-item').first();
      await expect(entry).toContainText(t('notification.newVersion', { productName: PRODUCT.name, semVer }));
      await expect(entry).toHaveAttribute('data-status', 'unread');
      found.push(...(await scan(page, `notification centre (${locale})`, ['.notification-centre-dropdown'])));
      await page.keyboard.press('Escape');

      // the business owner: no entry (written with the others, in one transaction) and, once every
      // mail of the fan-out has left the outbox, no mail
      const ownerEntries = (await notificationsOf(ownerSession)).data.filter(
        (n) => n.messageKey === 'notification.newVersion' && n.params.semVer === semVer,
      );
      expect(ownerEntries).toEqual([]);
      await expect
        .poll(async () => {
          const counts = await ok<JobCountsList>(await adminSession.get('/api/jobs'), 'GET /api/jobs');
          const deliver = counts.data.find((c) => c.name === 'mail.deliver');
          return deliver ? deliver.queued + deliver.active : -1;
        })
        .toBe(0);
      const ownerMails = await mailsNow({ to: owner.email, since: publishedAt, subject: new RegExp(escape(semVer)) });
      expect(ownerMails.map((m) => m.subject)).toEqual([]);

      // 4. the admin sees both kinds of work done
      found.push(...(await backgroundWork(page)));

      // 5. axe: the settings page after saving, the opened centre, the Background work page
      expectNoViolations(found);
    } finally {
      // as they were, for the other journeys
      await ownerSession.patch(`/api/members/${ownerMembership.membershipId}/settings`, {
        data: { notifyNewVersion: ownerMembership.settings.notifyNewVersion },
      });
      if (locale !== 'en') await techSession.patch('/api/auth/me', { data: { preferredLocale: 'en' } });
      await Promise.all([ownerSession.dispose(), techSession.dispose(), adminSession.dispose()]);
    }
  });
}
