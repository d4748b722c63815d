import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { Locale, Role } from '../common/roles';
import {
  expectNoViolations,
  openPage,
  resize,
  SCAN_LOCALES,
  scan,
  setPreferredLocale,
  signInThroughApi,
  VIEWPORTS,
} from './helpers/axe';
import { staffUserWithPassword, uniqueEmail } from './helpers/api';
import { isLoginCall } from './helpers/auth';
import { demoAccount } from './helpers/demo';
import { inviteByMail } from './helpers/invitations';
import { addFailedJob } from './helpers/jobs';
import { pageWidth } from './helpers/session';
import type { CustomerList } from '../common/api/customers';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';

/**
 * WCAG 2.1 AA: axe-core finds no violation on any page, open menu or modal, in English and French,
 * on a desktop and a phone. Each test walks its pages in both languages and fails once, with every
 * violation listed (rule, impact, elements), so one run shows all there is to fix.
 *
 * What each scan reads (docs/decisions/057):
 * - A page is scanned whole. An opened menu, modal or toast is scanned as the region it opened (the
 *   page beneath is scanned on its own), with the landmark rules still over the whole page.
 * - English at both widths. French at the desktop's width, and at the phone's too where the page is
 *   laid out differently there (its tables as cards): the words change with the language, the
 *   structure with the width, and French at 1280 px reads every French text the structure of that
 *   width holds. A menu that only a phone has (the burger) is scanned in French at the phone's width.
 */

interface Screen {
  path: string;
  /** what shows once the page has its content, beyond the page's h1 */
  ready?: (page: Page) => Locator;
}

const PUBLIC_SCREENS: readonly Screen[] = [
  { path: '/login', ready: (page) => page.getByTestId('cookie-notice') },
  { path: '/password-lost' },
  { path: '/reset-password/not-a-valid-token', ready: (page) => page.getByTestId('reset-invalid-token') },
  {
    path: '/confirm-email/not-a-valid-token',
    ready: (page) => page.locator('[data-testid="confirm-email"]:not([data-state="confirming"])'),
  },
  { path: '/no-such-page', ready: (page) => page.getByTestId('not-found-page') },
  { path: '/invitation/not-a-valid-key' },
  { path: '/sign-up', ready: (page) => page.getByTestId('signup-carousel') },
  { path: '/sign-up/confirmation/not-a-valid-key', ready: (page) => page.getByTestId('error-page') },
];

const LEGAL_SCREENS: readonly Screen[] = [
  '/terms-and-conditions',
  '/data-processing',
  '/cookies-information',
  '/privacy-policy',
].map((path) => ({ path, ready: (page: Page) => page.getByTestId('legal-page').locator('h2').first() }));

const STAFF_SCREENS: readonly Screen[] = [
  { path: '/' },
  { path: '/users', ready: (page) => page.getByTestId('user-row') },
  { path: '/webhooks', ready: (page) => page.getByTestId('webhook-row').first() },
  { path: '/background-work', ready: (page) => page.getByTestId('job-count-row').first() },
  { path: '/settings', ready: (page) => page.getByTestId('settings-profile') },
  { path: '/about', ready: (page) => page.getByTestId('about-contact') },
  { path: '/customers', ready: (page) => page.getByTestId('customer-card').first() },
  { path: '/products', ready: (page) => page.getByTestId('product-item') },
  { path: '/products/graph-server', ready: (page) => page.getByTestId('version-row') },
  { path: '/products/no-such-product', ready: (page) => page.getByTestId('product-not-found') },
  { path: '/no-such-page', ready: (page) => page.getByTestId('not-found-page') },
];

/** Runs `visit` in `locale`, setting the signed-in user's language first when there is one. */
async function inLanguage(
  page: Page,
  locale: Locale,
  signedIn: boolean,
  visit: (locale: Locale) => Promise<string[]>,
): Promise<string[]> {
  if (signedIn) await setPreferredLocale(page, locale);
  return visit(locale);
}

/** Whether the page lays anything out differently on a phone: a table shown as cards. */
async function hasPhoneLayout(page: Page): Promise<boolean> {
  return (await page.locator('[data-testid="table-scroller"][data-layout="cards"]').count()) > 0;
}

/**
 * Scans what is on screen at each width (the page is laid out again, not reloaded): both in English;
 * in French the desktop's, and the phone's where its layout differs.
 */
async function atEachWidth(page: Page, locale: Locale, what: string): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of VIEWPORTS) {
    await resize(page, viewport);
    if (locale !== 'en' && viewport !== VIEWPORTS[0] && !(await hasPhoneLayout(page))) continue;
    found.push(...(await scan(page, `${locale} ${viewport.name} ${what}`)));
  }
  return found;
}

/** What an opener opened: its label in the scan's report, and the region (CSS selectors) axe reads. */
interface Opened {
  what: string;
  region: readonly string[];
}

/** A modal dialog: the dialog itself (its overlay only dims the page). */
const DIALOG: readonly string[] = ['[role="dialog"]'];

/**
 * Opens something (a menu, a modal) at each width and scans the region it opened; `open` answers
 * what it opened, or null when there is nothing to open at that width. In French, at the first
 * width where it opens.
 */
async function openedAtEachWidth(
  page: Page,
  locale: Locale,
  open: () => Promise<Opened | null>,
  close: () => Promise<void>,
): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of VIEWPORTS) {
    await resize(page, viewport);
    const opened = await open();
    if (opened === null) continue;
    found.push(...(await scan(page, `${locale} ${viewport.name} ${opened.what}`, opened.region)));
    await close();
    if (locale !== 'en') break;
  }
  return found;
}

/** A toast at each width, as a region: the page beneath is scanned on its own. */
async function toastAtEachWidth(page: Page, locale: Locale, what: string): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of locale === 'en' ? VIEWPORTS : VIEWPORTS.slice(0, 1)) {
    await resize(page, viewport);
    found.push(...(await scan(page, `${locale} ${viewport.name} ${what}`, TOASTS)));
  }
  return found;
}

async function scanScreens(page: Page, screens: readonly Screen[], locale: Locale): Promise<string[]> {
  const found: string[] = [];
  for (const screen of screens) {
    await openPage(page, locale, screen.path, screen.ready);
    found.push(...(await atEachWidth(page, locale, screen.path)));
  }
  return found;
}

/** The burger that folds the top bar's links on a narrow screen. */
function burgerOf(page: Page): Locator {
  return page.getByTestId('nav-burger');
}

/** Opens the burger menu if it is shown; answers whether it was. */
async function openBurgerIfShown(page: Page): Promise<boolean> {
  const burger = burgerOf(page);
  if ((await burger.count()) === 0 || !(await burger.first().isVisible())) return false;
  await burger.first().click();
  await expect(burger.first()).toHaveAttribute('aria-expanded', 'true');
  return true;
}

/** Opens a top-bar control by the keyboard (focus, Enter), as a keyboard user would. */
async function pressOpen(page: Page, testId: string): Promise<void> {
  const control = page.getByTestId(testId);
  if (!(await control.isVisible())) await openBurgerIfShown(page);
  await control.focus();
  await page.keyboard.press('Enter');
  await expect(control).toHaveAttribute('aria-expanded', 'true');
}

async function closeWithEscape(page: Page, testId: string): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByTestId(testId)).toHaveAttribute('aria-expanded', 'false');
}

/** Every menu of the top bar at each width: the burger (on a phone), the user menu, the notification centre. */
async function scanTopBarMenus(page: Page, locale: Locale, path: string): Promise<string[]> {
  const found: string[] = [];
  await openPage(page, locale, path);
  found.push(
    ...(await openedAtEachWidth(
      page,
      locale,
      async () => {
        if (!(await openBurgerIfShown(page))) return null;
        await expect(page.getByTestId('nav-drawer').getByRole('link').first()).toBeVisible();
        // the drawer, and the phone's top bar with its burger button
        return { what: `${path} burger menu`, region: ['[data-testid="nav-drawer"]', 'header'] };
      },
      () => closeWithEscape(page, 'nav-burger'),
    )),
  );
  found.push(
    ...(await openedAtEachWidth(
      page,
      locale,
      async () => {
        await pressOpen(page, 'user-menu');
        await expect(page.getByTestId('menu-settings')).toBeVisible();
        return { what: `${path} user menu`, region: ['[role="menu"]'] };
      },
      () => closeWithEscape(page, 'user-menu'),
    )),
  );
  found.push(
    ...(await openedAtEachWidth(
      page,
      locale,
      async () => {
        await pressOpen(page, 'notification-centre');
        await expect(page.getByTestId('notification-centre-mark-read')).toBeVisible();
        // the demo admin's notifications (server/seed/notifications.ts), read and unread, linked or not
        await expect(page.getByTestId('notification-centre-item').first()).toBeVisible();
        return { what: `${path} notification centre`, region: ['.notification-centre-dropdown'] };
      },
      () => closeWithEscape(page, 'notification-centre'),
    )),
  );
  return found;
}

/**
 * The staff's search sheet at each width, opened with its key: with its hint, then with results
 * grouped by kind and one of them chosen with the arrow keys (decision 079).
 */
async function scanSearchSheet(page: Page, locale: Locale): Promise<string[]> {
  await openPage(page, locale, '/products');
  const found: string[] = [];
  for (const opened of ['hint', 'results'] as const) {
    found.push(
      ...(await openedAtEachWidth(
        page,
        locale,
        async () => {
          await page.keyboard.press('/');
          await expect(page.getByRole('combobox')).toBeFocused();
          if (opened === 'results') {
            await page.keyboard.type(DEMO_CUSTOMER_NAME.slice(0, 4));
            await expect(page.getByRole('option').first()).toBeVisible();
            await page.keyboard.press('ArrowDown');
            await expect(page.getByRole('option', { selected: true })).toBeVisible();
          }
          return { what: `search sheet (${opened})`, region: DIALOG };
        },
        () => closeDialog(page),
      )),
    );
  }
  return found;
}

/** The toasts' stack (Mantine's notifications, over the page). */
const TOASTS: readonly string[] = ['.mantine-Notifications-root'];

/**
 * A success toast and the notification centre listing it among the messages of this session: saving
 * the settings unchanged notifies. The centre keeps the session's toasts, so it is opened without a reload.
 */
async function scanToastAndCentreEntry(page: Page, locale: Locale): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of locale === 'en' ? VIEWPORTS : VIEWPORTS.slice(0, 1)) {
    await resize(page, viewport);
    const where = `${locale} ${viewport.name} /settings`;
    await openPage(page, locale, '/settings', (p) => p.getByTestId('settings-profile'));
    await page.getByTestId('settings-profile').locator('button[type="submit"]').click();
    await expect(page.getByTestId('notification-success')).toBeVisible();
    found.push(...(await scan(page, `${where} success toast`, TOASTS)));
    await pressOpen(page, 'notification-centre');
    await expect(page.getByTestId('toast-history-item').first()).toBeVisible();
    found.push(...(await scan(page, `${where} notification centre with a toast`, ['.notification-centre-dropdown'])));
    await closeWithEscape(page, 'notification-centre');
  }
  return found;
}

/**
 * The language switch of the page on screen, when it opens a menu (a plain button is scanned with
 * each page).
 */
async function scanLanguageMenu(page: Page, locale: Locale): Promise<string[]> {
  const path = new URL(page.url()).pathname;
  return openedAtEachWidth(
    page,
    locale,
    async () => {
      const switcher = page.getByTestId('language-switch');
      if (!(await switcher.isVisible()) || (await switcher.getAttribute('aria-haspopup')) === null) return null;
      await pressOpen(page, 'language-switch');
      return { what: `${path} language menu`, region: ['[role="menu"]'] };
    },
    () => closeWithEscape(page, 'language-switch'),
  );
}

/** The users page answering a search with no match: the empty state and its hint. */
async function searchingForNobody(page: Page, locale: Locale): Promise<string[]> {
  await page.getByTestId('users-search').fill('nobody-has-this-name');
  await expect(page.getByTestId('users-empty')).toBeVisible();
  return atEachWidth(page, locale, '/users (no match)');
}

/** Opens a modal with the first control of `testId`; answers what it opened, for the scan. */
function modalOpener(page: Page, testId: string, what: string) {
  return async (): Promise<Opened> => {
    await page.getByTestId(testId).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    return { what, region: DIALOG };
  };
}

async function closeDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
}

async function signInAs(page: Page, role: Role): Promise<void> {
  await signInThroughApi(page, demoAccount(role));
}

/** Puts the demo account back in English whatever happened: the other journeys expect /en. */
async function restoreEnglish(page: Page): Promise<void> {
  await setPreferredLocale(page, 'en').catch(() => undefined);
}

// One test per screen group and language: the two workers share the scans out more evenly.
for (const language of SCAN_LOCALES) {
  test.describe(`accessibility (axe, WCAG 2.1 AA, ${language})`, () => {
    // Each scan takes about a second on a busy machine; a test holds up to 16 of them.
    test.describe.configure({ timeout: 120_000 });

    test('public pages', async ({ page }) => {
      const found = await inLanguage(page, language, false, async (locale) => [
        ...(await scanScreens(page, PUBLIC_SCREENS, locale)),
        ...(await scanLanguageMenu(page, locale)),
      ]);
      expectNoViolations(found);
    });

    test('the sign-in page refusing a password and asking for the captcha', async ({ page }) => {
      const found = await inLanguage(page, language, false, async (locale) => {
        // An address of its own: the refusals count against it only.
        const email = uniqueEmail(`axe-${locale}`);
        await openPage(page, locale, '/login');
        for (let attempt = 1; attempt <= 3; attempt++) {
          await page.locator('input[name="email"]').fill(email);
          await page.locator('input[name="password"]').fill('Not-the-password-1!');
          const answer = page.waitForResponse(isLoginCall);
          await page.locator('form button[type="submit"]').click();
          expect((await answer).status()).toBe(401);
        }
        await expect(page.getByTestId('login-error')).toBeVisible();
        await expect(page.getByTestId('captcha')).toBeVisible();
        return atEachWidth(page, locale, '/login with an error and the captcha');
      });
      expectNoViolations(found);
    });

    test('legal pages', async ({ page }) => {
      expectNoViolations(await inLanguage(page, language, false, (locale) => scanScreens(page, LEGAL_SCREENS, locale)));
    });

    test('staff pages (admin)', async ({ page }) => {
      await signInAs(page, 'admin');
      try {
        expectNoViolations(
          await inLanguage(page, language, true, (locale) => scanScreens(page, STAFF_SCREENS, locale)),
        );
      } finally {
        await restoreEnglish(page);
      }
    });

    test('top bar menus, a toast and the notification centre (admin)', async ({ page }) => {
      await signInAs(page, 'admin');
      try {
        const found = await inLanguage(page, language, true, async (locale) => [
          ...(await scanTopBarMenus(page, locale, '/')),
          ...(await scanSearchSheet(page, locale)),
          ...(await scanLanguageMenu(page, locale)),
          ...(await scanToastAndCentreEntry(page, locale)),
        ]);
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test('the user modal, to create and to edit, and a search that finds nobody', async ({ page }) => {
      await signInAs(page, 'admin');
      const openModal = (button: string, what: string) => modalOpener(page, button, what);
      const closeModal = () => closeDialog(page);
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          await openPage(page, locale, '/users', (p) => p.getByTestId('user-row'));
          return [
            ...(await openedAtEachWidth(page, locale, openModal('users-add', 'user modal (create)'), closeModal)),
            ...(await openedAtEachWidth(page, locale, openModal('user-edit', 'user modal (edit)'), closeModal)),
            ...(await searchingForNobody(page, locale)),
          ];
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test("webhooks: an endpoint's deliveries, the endpoint modal, the secret shown once, the delete confirmation (admin)", async ({
      page,
    }) => {
      await signInAs(page, 'admin');
      const closeModal = () => closeDialog(page);
      const createEndpoint = async (): Promise<Opened> => {
        await page.getByTestId('webhook-add').click();
        const dialog = page.getByRole('dialog');
        await dialog.locator('input[name="url"]').fill(`https://hooks.example.com/axe-${Date.now()}`);
        await dialog.locator('input[name="events"]').first().check();
        await dialog.locator('button[type="submit"]').click();
        await expect(page.getByTestId('webhook-secret')).toBeVisible();
        return { what: 'webhook secret shown once', region: DIALOG };
      };
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          await openPage(page, locale, '/webhooks', (p) => p.getByTestId('webhook-row').first());
          await page.getByTestId('webhook-deliveries-open').first().click();
          await expect(page.getByTestId('webhook-delivery-row').first()).toBeVisible();
          return [
            ...(await atEachWidth(page, locale, '/webhooks (deliveries)')),
            ...(await openedAtEachWidth(
              page,
              locale,
              modalOpener(page, 'webhook-add', 'webhook modal (create)'),
              closeModal,
            )),
            ...(await openedAtEachWidth(
              page,
              locale,
              modalOpener(page, 'webhook-edit', 'webhook modal (edit)'),
              closeModal,
            )),
            ...(await openedAtEachWidth(
              page,
              locale,
              modalOpener(page, 'webhook-delete', 'webhook deletion'),
              closeModal,
            )),
            ...(await openedAtEachWidth(page, locale, createEndpoint, closeModal)),
          ];
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test('the customer modal, to create and to edit, the account executive picker, and a customer search that finds nobody', async ({
      page,
    }) => {
      await signInAs(page, 'admin');
      const dialog = page.getByRole('dialog');
      const openModal = (button: string, what: string) => async (): Promise<Opened> => {
        await page.getByTestId(button).first().click();
        await expect(dialog).toBeVisible();
        // the account executive picker's open list is a listbox beside its dialog
        return { what, region: [...DIALOG, '[role="listbox"]'] };
      };
      const closeModal = async () => {
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
      };
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          await openPage(page, locale, '/customers', (p) => p.getByTestId('customer-card').first());
          const violations = await openedAtEachWidth(
            page,
            locale,
            openModal('customers-add', 'customer modal (create)'),
            closeModal,
          );
          await page.getByTestId('customers-search').fill('nobody-has-this-name');
          await expect(page.getByTestId('customers-empty')).toBeVisible();
          violations.push(...(await atEachWidth(page, locale, '/customers (no match)')));
          await page.getByTestId('customers-search').fill('');
          await page.getByTestId('customer-card').first().click();
          await expect(page.getByTestId('account-page')).toBeVisible();
          violations.push(
            ...(await openedAtEachWidth(page, locale, openModal('account-edit', 'customer modal (edit)'), closeModal)),
            ...(await openedAtEachWidth(
              page,
              locale,
              openModal('account-executive-change', 'account executive picker (its list open)'),
              // the first Escape closes the open list of the searchable select, as it should
              async () => {
                await page.keyboard.press('Escape');
                await closeModal();
              },
            )),
          );
          return violations;
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test('the account picker and a customer page (account executive)', async ({ page }) => {
      await signInAs(page, 'accountExecutive');
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          const violations = await scanScreens(
            page,
            [{ path: '/select-account', ready: (p) => p.getByTestId('account-entry') }],
            locale,
          );
          await page.getByTestId('account-entry').first().click();
          await expect(page).toHaveURL(/\/accounts\/\d+$/);
          const account = new URL(page.url()).pathname.replace(/^\/(en|fr)/, '');
          violations.push(...(await scanScreens(page, [{ path: account }], locale)));
          violations.push(...(await scanTopBarMenus(page, locale, account)));
          return violations;
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test('a customer page as admin: the customer modal, the sync failure toast, a customer not found', async ({
      page,
    }) => {
      await signInAs(page, 'admin');
      const list = (await (await page.request.get('/api/customers?filter=Acme')).json()) as { data: { id: number }[] };
      const path = `/accounts/${list.data[0].id}`;
      const dialog = page.getByRole('dialog');
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          const violations = await scanScreens(
            page,
            [{ path: '/accounts/2000000000', ready: (p) => p.getByTestId('account-not-found') }],
            locale,
          );
          await openPage(page, locale, path, (p) => p.getByTestId('account-edit'));
          violations.push(
            ...(await openedAtEachWidth(
              page,
              locale,
              async () => {
                await page.getByTestId('account-edit').click();
                await expect(dialog).toBeVisible();
                return { what: `${path} customer modal (edit)`, region: DIALOG };
              },
              async () => {
                await page.keyboard.press('Escape');
                await expect(dialog).toBeHidden();
              },
            )),
          );
          await page.getByTestId('account-sync').click();
          await expect(page.getByTestId('notification-error')).toBeVisible();
          violations.push(...(await toastAtEachWidth(page, locale, `${path} sync failure toast`)));
          return violations;
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test("a client's home, its menus and the about page (business owner)", async ({ page }) => {
      await signInAs(page, 'businessOwner');
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          // A client with one customer lands on it: that page is the client's home.
          await openPage(page, locale, '/select-account');
          await expect(page).toHaveURL(/\/accounts\/\d+$/);
          const home = new URL(page.url()).pathname.replace(/^\/(en|fr)/, '');
          return [
            ...(await atEachWidth(page, locale, `client home ${home}`)),
            ...(await scanTopBarMenus(page, locale, home)),
            ...(await scanScreens(page, [{ path: '/about' }], locale)),
          ];
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test('the invitation steps of a new contact, and the join card of a signed-in one', async ({ page }) => {
      const found: string[] = [];
      {
        const locale = language;
        const { link } = await inviteByMail({
          email: uniqueEmail(`axe-invited-${locale}`),
          fullName: 'Axel Invited',
          locale,
        });
        const path = link.pathname.replace(/^\/(en|fr)/, '');
        await openPage(page, locale, path, (p) => p.getByTestId('invitation-summary'));
        found.push(...(await atEachWidth(page, locale, 'invitation join card')));
        await page.getByTestId('invitation-join').click();
        for (const step of ['EULA', 'GDPR notice']) {
          await expect(page.getByTestId('invitation-accept-legal')).toBeEnabled();
          found.push(...(await atEachWidth(page, locale, `invitation ${step}`)));
          await page.getByTestId('invitation-accept-legal').click();
        }
        await page.locator('form button[type="submit"]').click();
        await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
        found.push(...(await atEachWidth(page, locale, 'invitation sign-up form with errors')));
      }

      const { user, password } = await staffUserWithPassword({
        label: 'axe-invited-exec',
        type: 'accountExecutive',
        fullname: 'Axel Executive',
      });
      const { link } = await inviteByMail({ email: user.email, fullName: user.fullname, role: 'accountExecutive' });
      await signInThroughApi(page, { email: user.email, password });
      const path = link.pathname.replace(/^\/(en|fr)/, '');
      found.push(
        ...(await inLanguage(page, language, true, async (locale) => {
          await openPage(page, locale, path, (p) => p.getByTestId('invitation-join'));
          return atEachWidth(page, locale, 'invitation join card (signed in)');
        })),
      );
      expectNoViolations(found);
    });

    test('the members section, the members modal to invite and to edit, and the cancel confirmation (admin)', async ({
      page,
    }) => {
      await signInAs(page, 'admin');
      const customers = await page.request.get(`/api/customers?filter=${encodeURIComponent(DEMO_CUSTOMER_NAME)}`);
      const customerId = ((await customers.json()) as CustomerList).data.find((c) => c.name === DEMO_CUSTOMER_NAME)!.id;
      const openModal = (testId: string, what: string) => modalOpener(page, testId, what);
      const closeModal = () => closeDialog(page);
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          await openPage(page, locale, `/accounts/${customerId}`, (p) => p.getByTestId('invitation-row'));
          return [
            ...(await atEachWidth(page, locale, 'members section')),
            ...(await openedAtEachWidth(page, locale, openModal('members-add', 'members modal (invite)'), closeModal)),
            ...(await openedAtEachWidth(page, locale, openModal('member-edit', 'members modal (status)'), closeModal)),
            ...(await openedAtEachWidth(
              page,
              locale,
              openModal('invitation-cancel', 'invitation cancel confirmation'),
              closeModal,
            )),
          ];
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test('the Background work page with failed jobs, the discard confirmation, and a kind without failures (admin)', async ({
      page,
      portal,
    }) => {
      // two failed jobs, so the list is a table (and cards on a phone) with its actions
      for (const n of [1, 2]) {
        addFailedJob(portal.database, {
          name: 'downloads.record',
          error: `insert or update on table "downloads" violates foreign key constraint (axe ${n})`,
          payload: { url: '[redacted]', licence: { id: 2_000_000_000 + n, productKey: '[redacted]' } },
        });
      }
      await signInAs(page, 'admin');
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          await openPage(page, locale, '/background-work', (p) => p.getByTestId('failed-job-row').first());
          const violations = await atEachWidth(page, locale, '/background-work (failed jobs)');
          // the last width scanned is the phone's: both tables are cards there, nothing scrolls sideways
          const phone = VIEWPORTS[VIEWPORTS.length - 1];
          await expect(page.locator('[data-testid="table-scroller"][data-layout="cards"]')).toHaveCount(2);
          expect((await pageWidth(page)).scrollWidth).toBeLessThanOrEqual(phone.width);
          violations.push(
            ...(await openedAtEachWidth(
              page,
              locale,
              modalOpener(page, 'failed-job-discard', 'failed job discard confirmation'),
              () => closeDialog(page),
            )),
          );
          await openPage(page, locale, '/background-work?name=sweep.storage', (p) =>
            p.getByTestId('failed-jobs-empty'),
          );
          violations.push(...(await atEachWidth(page, locale, '/background-work (no failed jobs)')));
          return violations;
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test('the logout page', async ({ page }) => {
      const found: string[] = [];
      {
        const locale = language;
        await signInAs(page, 'productManager');
        await setPreferredLocale(page, locale);
        await page.goto(`/${locale}/logout`);
        await expect(page.getByTestId('logout-page')).toBeVisible();
        found.push(...(await atEachWidth(page, locale, '/logout')));
      }
      await signInAs(page, 'productManager');
      await restoreEnglish(page);
      expectNoViolations(found);
    });

    test("the release pages: a file's commands, the secret shown, what changed since a version (technical contact)", async ({
      page,
    }) => {
      await signInAs(page, 'technicalContact');
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          await openPage(page, locale, '/select-account');
          await expect(page).toHaveURL(/\/accounts\/\d+/);
          const section = page.getByTestId('versions-section');
          // the product with several releases with files (the first product of the licences has one)
          await section.getByTestId('versions-product').selectOption('graph-server');
          const card = section.getByTestId('version-card').first();
          await expect(card.getByTestId('version-artifact').first()).toBeVisible();
          await card.getByTestId('artifact-commands-toggle').first().click();
          await expect(card.getByTestId('artifact-command').first()).toBeVisible();
          await section.getByTestId('script-reveal').click();
          await expect(section.getByTestId('script-reveal')).toHaveAttribute('aria-pressed', 'true');
          const violations = await atEachWidth(page, locale, 'versions with commands and the secret shown');
          await section.getByTestId('since-version').selectOption({ index: 1 });
          await section.getByTestId('since-open').click();
          await expect(page.getByTestId('changes-page').getByTestId('version-card').first()).toBeVisible();
          violations.push(...(await atEachWidth(page, locale, 'what changed since a version')));
          return violations;
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });

    test('recent actions filtered and the notification settings (business owner)', async ({ page }) => {
      await signInAs(page, 'businessOwner');
      try {
        const found = await inLanguage(page, language, true, async (locale) => {
          await openPage(page, locale, '/select-account');
          await expect(page).toHaveURL(/\/accounts\/\d+$/);
          const section = page.getByTestId('recent-actions-section');
          await expect(section.getByTestId('recent-action').first()).toBeVisible();
          const violations = await atEachWidth(page, locale, 'recent actions');
          await section.getByTestId('recent-actions-filter').selectOption('acceptInvitation');
          await expect(
            section.locator('[data-testid="recent-action"]:not([data-action="acceptInvitation"])'),
          ).toHaveCount(0);
          await expect(section.getByTestId('recent-action').first()).toBeVisible();
          violations.push(...(await atEachWidth(page, locale, 'recent actions filtered')));
          await openPage(page, locale, '/settings', (p) => p.getByTestId('settings-notification-block'));
          violations.push(...(await atEachWidth(page, locale, '/settings with notification blocks')));
          return violations;
        });
        expectNoViolations(found);
      } finally {
        await restoreEnglish(page);
      }
    });
  });
}
