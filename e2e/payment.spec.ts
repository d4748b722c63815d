import { type APIRequestContext, type BrowserContext, type Page, request } from '@playwright/test';
import { expect, test } from './fixtures';
import type { InstanceList } from '../common/api/instances';
import { formatDayMonthYear } from '../common/format';
import type { Locale } from '../common/roles';
import { newPassword, uniqueEmail } from './helpers/api';
import { expectNoViolations, resize, scan, VIEWPORTS } from './helpers/axe';
import { ENV, requireEnv } from './helpers/environment';
import { linkIn, waitForMail } from './helpers/mailbox';
import { pageWidth, signInThroughApi } from './helpers/session';
import { textsOf } from './helpers/texts';

type TFunction = Awaited<ReturnType<typeof textsOf>>;

/**
 * Paying by card through the built-in test checkout (docs/billing.md): a self-service customer's
 * project manager, in trial after the sign-up, subscribes and pays, comes back to the customer page,
 * which verifies the payment and shows the subscription paid; then a renewal fails on the billing
 * portal (a new tab) and the page shows the payment issue with the grace warning. The other statuses
 * of spec section 4 each get their journey: a slow payment's waiting screen (processing), the grace
 * ended unpaid (past due, the instance disabled with the day its data goes), every retry failed
 * (unpaid). In English at 1280 px and in French at 390 px; axe finds nothing on each new page.
 */

const CONFIRMATION_LINK = /\/(en|fr)\/sign-up\/confirmation\/[A-Za-z0-9_-]+$/;

/** A fresh self-service customer in trial, through the sign-up's API, and its project manager's credentials. */
async function trialCustomer(locale: Locale) {
  const email = uniqueEmail(`pay-${locale}`);
  const password = newPassword();
  const company = `Paying Graphs ${locale.toUpperCase()} ${email.slice(8, 14)}`;
  const visitor: APIRequestContext = await request.newContext({ baseURL: requireEnv(ENV.baseUrl) });
  try {
    const since = new Date();
    const signup = await visitor.post('/api/signup', {
      data: { email, firstName: 'Paula', lastName: 'Payer', companyName: company, jobTitle: 'CFO', locale },
    });
    expect(signup.ok(), `POST /api/signup: ${signup.status()} ${await signup.text()}`).toBe(true);
    const link = linkIn(await waitForMail({ to: email, since, link: CONFIRMATION_LINK }), CONFIRMATION_LINK);
    const key = decodeURIComponent(link.pathname.split('/').pop()!);
    const confirmed = await visitor.post(`/api/signup/${key}/confirm`, {
      data: {
        firstName: 'Paula',
        lastName: 'Payer',
        password,
        confirmPassword: password,
        useCase: 'supply-chain',
        graphDB: 'neo4j',
      },
    });
    expect(confirmed.ok(), `POST /api/signup/{key}/confirm: ${await confirmed.text()}`).toBe(true);
    const { customerId } = (await confirmed.json()) as { customerId: number };
    return { customerId, company, credentials: { email, password } };
  } finally {
    await visitor.dispose();
  }
}

/**
 * A journey's start: a fresh trial customer's project manager signed in on a page of the journey's
 * size, the texts of its language, and where it is for the messages.
 */
async function signedInTrial(page: Page, locale: Locale, viewport: (typeof VIEWPORTS)[number]) {
  const t = await textsOf(locale);
  const trial = await trialCustomer(locale);
  await resize(page, viewport);
  await signInThroughApi(page, trial.credentials);
  return { t, ...trial, where: `${locale} ${viewport.width} px` };
}

async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await pageWidth(page);
  expect(scrollWidth, `page width on ${where}`).toBeLessThanOrEqual(innerWidth);
}

for (const [locale, viewport] of [
  ['en', VIEWPORTS[0]],
  ['fr', VIEWPORTS[1]],
] as const) {
  test(`a project manager pays through the test checkout, then a failed renewal brings the grace warning (${locale}, ${viewport.width} px)`, async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const { t, customerId, company, where } = await signedInTrial(page, locale, viewport);

    // in trial: the subscription block offers the checkout
    await page.goto(`/${locale}/accounts/${customerId}`);
    await expect(page.getByRole('heading', { level: 1, name: company })).toBeVisible();
    const status = page.getByTestId('subscription-status');
    await expect(status).toContainText(t('billing.subscription.phrases.trial'));
    await expect(page.getByTestId('subscription-type')).toHaveText(t('billing.subscription.selfService'));
    expectNoViolations(await scan(page, `customer page in trial, ${where}`));

    // from the keyboard: the checkout, then the test checkout's Pay
    const subscribe = page.getByRole('button', { name: t('billing.subscription.subscribe') });
    await subscribe.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/${locale}/test-checkout/cs_test_`));
    await expect(
      page.getByRole('heading', { level: 1, name: t('billing.testCheckout.checkoutTitle', { customer: company }) }),
    ).toBeVisible();
    await expect(page.getByTestId('test-checkout-price')).toBeVisible();
    await expectNoSidewaysScroll(page, `the test checkout, ${where}`);
    expectNoViolations(await scan(page, `test checkout, ${where}`));

    // a declined card first: the page says so and stays
    await page.getByRole('button', { name: t('billing.testCheckout.decline') }).click();
    await expect(page.getByTestId('test-checkout-declined')).toHaveText(t('billing.testCheckout.declined'));
    expectNoViolations(await scan(page, `test checkout, card declined, ${where}`));

    const pay = page.getByRole('button', { name: t('billing.testCheckout.pay'), exact: true });
    await pay.focus();
    await page.keyboard.press('Enter');

    // back on the customer page: verified, the address cleaned, the subscription paid
    await page.waitForURL(new RegExp(`/${locale}/accounts/${customerId}$`));
    await expect(status).toContainText(t('billing.subscription.phrases.paid'));
    expect(new URL(page.url()).search).toBe('');
    await expect(page.getByTestId('payment-issue')).toHaveCount(0);
    expectNoViolations(await scan(page, `customer page, paid, ${where}`));

    // the billing portal opens in a new tab, where the next renewal fails
    const [portal] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: new RegExp(t('billing.subscription.manage')) }).click(),
    ]);
    await portal.waitForURL(new RegExp(`/${locale}/test-checkout/bps_test_`));
    await resize(portal, viewport);
    await expect(portal.getByTestId('test-checkout-status')).toBeVisible();
    await expectNoSidewaysScroll(portal, `the test billing portal, ${where}`);
    expectNoViolations(await scan(portal, `test billing portal, ${where}`));
    await portal.getByRole('button', { name: t('billing.testCheckout.renewalFailed') }).click();
    await expect(portal.getByTestId('notification-success').last()).toContainText(t('billing.testCheckout.done'));
    await portal.close();

    // the provider's events reach the portal as jobs: the page shows grace once they have run
    const issue = page.getByTestId('payment-issue');
    await expect(async () => {
      await page.reload();
      await expect(issue).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId('payment-grace-warning')).toHaveText(t('billing.issue.graceWarning', { count: 14 }));
    await expect(page.getByRole('button', { name: t('billing.issue.updateMethod') })).toBeVisible();
    // grace keeps the service: the main sections stay (a trial without licences: its instance and subscription)
    await expect(page.getByTestId('instances-section')).toBeVisible();
    await expect(page.getByTestId('subscription-section')).toBeVisible();
    await expectNoSidewaysScroll(page, `the customer page in grace, ${where}`);
    expectNoViolations(await scan(page, `customer page in grace, ${where}`));

    // a new card pays what is due: back to paid
    await page.getByRole('button', { name: t('billing.issue.updateMethod') }).click();
    await page.waitForURL(new RegExp(`/${locale}/test-checkout/bps_test_`));
    // scanned once drawn: its address comes before its page's code does
    await expect(page.getByRole('button', { name: t('billing.testCheckout.saveCard') })).toBeVisible();
    expectNoViolations(await scan(page, `test new card, ${where}`));
    await page.getByRole('button', { name: t('billing.testCheckout.saveCard') }).click();
    await page.waitForURL(new RegExp(`/${locale}/accounts/${customerId}$`));
    await expect(async () => {
      await page.reload();
      await expect(status).toContainText(t('billing.subscription.phrases.paid'), { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(issue).toHaveCount(0);
  });
}

/** The customer page asked again until `check` holds: the provider's events reach the portal as jobs. */
async function untilAfterJobs(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 30_000 });
}

/** From the trial: the subscription block's checkout, paid on the test checkout with `button`. */
async function subscribeAndPay(page: Page, t: TFunction, locale: Locale, customerId: number, button: string) {
  await page.goto(`/${locale}/accounts/${customerId}`);
  await page.getByRole('button', { name: t('billing.subscription.subscribe') }).click();
  await page.waitForURL(new RegExp(`/${locale}/test-checkout/cs_test_`));
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.waitForURL(new RegExp(`/${locale}/accounts/${customerId}$`));
}

/** The test billing portal, opened from the subscription block in a new tab. */
async function billingPortal(page: Page, context: BrowserContext, t: TFunction, locale: Locale) {
  const [portal] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('button', { name: new RegExp(t('billing.subscription.manage')) }).click(),
  ]);
  await portal.waitForURL(new RegExp(`/${locale}/test-checkout/bps_test_`));
  return portal;
}

async function act(portal: Page, t: TFunction, action: string) {
  await portal.getByRole('button', { name: t(`billing.testCheckout.${action}`) }).click();
  await expect(portal.getByTestId('notification-success').last()).toContainText(t('billing.testCheckout.done'));
}

for (const [locale, viewport] of [
  ['en', VIEWPORTS[0]],
  ['fr', VIEWPORTS[1]],
] as const) {
  test(`a slow payment shows the waiting screen until it goes through (${locale}, ${viewport.width} px)`, async ({
    page,
    context,
  }) => {
    test.setTimeout(150_000);
    const { t, customerId, where } = await signedInTrial(page, locale, viewport);

    // paid, then cancelled now on the billing portal: the page offers to subscribe again
    await subscribeAndPay(page, t, locale, customerId, t('billing.testCheckout.pay'));
    await expect(page.getByTestId('subscription-status')).toContainText(t('billing.subscription.phrases.paid'));
    const portal = await billingPortal(page, context, t, locale);
    await act(portal, t, 'cancelNow');
    await portal.close();
    const issue = page.getByTestId('payment-issue-status');
    await untilAfterJobs(page, () => expect(issue).toContainText(t('billing.issue.canceled'), { timeout: 2_000 }));

    // subscribing again by a slow method: the waiting screen, which asks again by itself
    await page.getByRole('button', { name: t('billing.issue.subscribeAgain') }).click();
    await page.waitForURL(new RegExp(`/${locale}/test-checkout/cs_test_`));
    const checkoutUrl = page.url();
    await page.getByRole('button', { name: t('billing.testCheckout.payProcessing') }).click();
    await page.waitForURL(new RegExp(`/${locale}/accounts/${customerId}$`));
    const waiting = page.getByTestId('payment-waiting');
    await untilAfterJobs(page, () => expect(waiting).toBeVisible({ timeout: 2_000 }));
    await expect(waiting.getByRole('heading', { name: t('billing.payment.waitingTitle') })).toBeVisible();
    await expect(waiting.getByRole('status')).toHaveText(t('billing.payment.waiting'));
    await expect(page.getByTestId('instances-section')).toHaveCount(0);
    await expectNoSidewaysScroll(page, `the waiting screen, ${where}`);
    expectNoViolations(await scan(page, `customer page, payment processing, ${where}`));

    // the tester says the payment went through (another tab): the waiting page moves on by itself
    const tester = await context.newPage();
    await tester.goto(checkoutUrl);
    await expect(tester.getByTestId('test-checkout-price')).toHaveText(t('billing.testCheckout.processing'));
    await act(tester, t, 'paymentClears');
    await tester.close();
    await expect(page.getByTestId('subscription-status')).toContainText(t('billing.subscription.phrases.paid'), {
      timeout: 30_000,
    });
    await expect(waiting).toHaveCount(0);
  });

  test(`a failed renewal left unpaid past its grace: past due, the instance disabled with its deletion day, then unpaid (${locale}, ${viewport.width} px)`, async ({
    page,
    context,
  }) => {
    test.setTimeout(150_000);
    const { t, customerId, where } = await signedInTrial(page, locale, viewport);

    // the trial's instance is ready before the service is suspended
    await page.goto(`/${locale}/accounts/${customerId}`);
    await expect(page.getByTestId('instance-status').first()).toHaveText(t('instances.status.provisioned'), {
      timeout: 30_000,
    });
    await subscribeAndPay(page, t, locale, customerId, t('billing.testCheckout.pay'));
    await expect(page.getByTestId('subscription-status')).toContainText(t('billing.subscription.phrases.paid'));

    const portal = await billingPortal(page, context, t, locale);
    await act(portal, t, 'renewalFailed');
    const issue = page.getByTestId('payment-issue-status');
    await untilAfterJobs(page, () => expect(issue).toContainText(t('billing.issue.grace'), { timeout: 2_000 }));

    // the grace ends unpaid: past due, the main sections held back, the instance disabled
    await portal.reload();
    await act(portal, t, 'graceOver');
    await untilAfterJobs(page, () => expect(issue).toContainText(t('billing.issue.pastDue'), { timeout: 2_000 }));
    await expect(page.getByTestId('instances-section')).toHaveCount(0);
    const instances = (await (await page.request.get(`/api/customers/${customerId}/instances`)).json()) as InstanceList;
    const archived = instances.data.find((instance) => instance.status === 'archived')!;
    expect(archived.deleteDataAt).not.toBeNull();
    await expect(page.getByTestId('payment-archived')).toHaveText(
      t('billing.issue.archived', {
        name: archived.name,
        date: formatDayMonthYear(archived.deleteDataAt!, locale),
      }),
    );
    await expect(page.getByRole('button', { name: t('billing.issue.updateMethod') })).toBeVisible();
    await expectNoSidewaysScroll(page, `the customer page past due, ${where}`);
    expectNoViolations(await scan(page, `customer page, past due, ${where}`));

    // every retry fails: unpaid
    await portal.reload();
    await act(portal, t, 'retriesFail');
    await portal.close();
    await untilAfterJobs(page, () => expect(issue).toContainText(t('billing.issue.unpaid'), { timeout: 2_000 }));
    await expect(page.getByTestId('payment-archived')).toBeVisible();
    await expect(page.getByRole('button', { name: t('billing.issue.updateMethod') })).toBeVisible();
    expectNoViolations(await scan(page, `customer page, unpaid, ${where}`));
  });
}
