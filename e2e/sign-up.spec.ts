import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { newPassword, uniqueEmail } from './helpers/api';
import { expectNoViolations, scan } from './helpers/axe';
import { demoAccount } from './helpers/demo';
import { readAndAccept } from './helpers/invitations';
import { linkIn, waitForMail } from './helpers/mailbox';
import { pageWidth, signInThroughApi } from './helpers/session';
import { textsOf } from './helpers/texts';
import { formatDayMonthYear } from '../common/format';

/** The link of a sign-up's mail: /{locale}/sign-up/confirmation/{key}. */
const CONFIRMATION_LINK = /\/(en|fr)\/sign-up\/confirmation\/[A-Za-z0-9_-]+$/;

const TEXTS = {
  en: {
    heading: 'Start your free trial',
    fields: ['First name', 'Last name', 'Work e-mail', 'Company name', 'Job title'],
    submit: 'Sign up',
    sent: 'Check your inbox',
    subject: 'Confirm your sign-up to the customer portal',
    wizard: 'Set up your trial',
    useCase: 'Cyber security',
    graphDb: 'Neo4j',
    firstName: 'First name',
    lastName: 'Last name',
    password: 'Password',
    confirmation: 'Confirm password',
    next: 'Next',
    eula: 'End-user licence agreement',
    gdpr: 'Privacy notice',
    accept: 'I accept',
    pending: 'Your sign-up is waiting for you',
    existing: 'You already have an account',
  },
  fr: {
    heading: 'Commencez votre essai gratuit',
    fields: ['Prénom', 'Nom', 'E-mail professionnel', "Nom de l'entreprise", 'Fonction'],
    submit: "M'inscrire",
    sent: 'Consultez votre boîte de réception',
    subject: 'Confirmez votre inscription au portail client',
    wizard: 'Préparez votre essai',
    useCase: 'Cybersécurité',
    graphDb: 'Neo4j',
    firstName: 'Prénom',
    lastName: 'Nom',
    password: 'Mot de passe',
    confirmation: 'Confirmez le mot de passe',
    next: 'Suivant',
    eula: 'Contrat de licence utilisateur final',
    gdpr: 'Notice de confidentialité',
    accept: "J'accepte",
    pending: 'Votre inscription vous attend',
    existing: 'Vous avez déjà un compte',
  },
} as const;

type Locale = keyof typeof TEXTS;

async function fillSignUp(page: Page, locale: Locale, values: string[]) {
  const text = TEXTS[locale];
  for (const [index, label] of text.fields.entries()) {
    await page.getByLabel(label, { exact: true }).fill(values[index]);
  }
}

async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await pageWidth(page);
  expect(scrollWidth, `page width on ${where}`).toBeLessThanOrEqual(innerWidth);
}

/**
 * No word of the wizard's step names and choices is broken across lines at 390 px ("Datab-ase"), and
 * none overflows its box: each word's text lies on one line (one box of the same top for all its
 * letters), the page as wide as the screen. The viewport is set back afterwards.
 */
async function expectWholeWordsAt390(page: Page, where: string) {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await expectNoSidewaysScroll(page, `${where} at 390 px`);
    const broken = await page.evaluate(() => {
      const found: string[] = [];
      const boxes = document.querySelectorAll('.signup-step, .signup-choice');
      for (const box of boxes) {
        if (box.scrollWidth > box.clientWidth + 1) found.push(`overflows: ${box.textContent}`);
        const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          for (const match of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            if (tops.size > 1) found.push(match[0]);
          }
        }
        const style = getComputedStyle(box);
        if (style.hyphens === 'auto' || style.wordBreak === 'break-all' || style.overflowWrap === 'anywhere')
          found.push(`breaks anywhere: ${box.textContent}`);
      }
      return { count: boxes.length, found };
    });
    expect(broken.count, `step names and choices on ${where}`).toBeGreaterThan(0);
    expect(broken.found, `words broken on ${where}`).toEqual([]);
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

/**
 * Spec 2, the self-service trial: a visitor signs up, follows the mailed link, goes through the
 * wizard, the EULA and the GDPR notice, and lands signed in on the new customer's page in trial,
 * where the trial's cloud instance becomes Ready.
 */
async function signUpAndConfirm(page: Page, locale: Locale) {
  const text = TEXTS[locale];
  const email = uniqueEmail(`signup-${locale}`);
  const company = `Trial Graphs ${locale.toUpperCase()} ${email.slice(11, 17)}`;

  await page.goto(`/${locale}/sign-up`);
  await expect(page.getByRole('heading', { level: 1, name: text.heading })).toBeVisible();
  await expect(page.getByTestId('signup-carousel')).toBeVisible();
  await expectNoSidewaysScroll(page, 'the sign-up page');
  expectNoViolations(await scan(page, `${locale} sign-up form`));

  const since = new Date();
  await fillSignUp(page, locale, ['Jean', 'Pierre Martin', email, company, 'CTO']);
  await page.getByRole('button', { name: text.submit, exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: text.sent })).toBeVisible();
  expectNoViolations(await scan(page, `${locale} sign-up sent`));

  const mail = await waitForMail({ to: email, since, link: CONFIRMATION_LINK });
  expect(mail.subject).toBe(text.subject);
  const link = linkIn(mail, CONFIRMATION_LINK);
  expect(link.pathname.startsWith(`/${locale}/sign-up/confirmation/`)).toBe(true);

  await page.goto(link.href);
  await expect(page.getByRole('heading', { level: 1, name: text.wizard })).toBeVisible();
  await expect(page.getByTestId('signup-summary')).toContainText(company);
  await expectNoSidewaysScroll(page, 'the confirmation wizard');
  await expectWholeWordsAt390(page, `the ${locale} wizard, use cases`);
  expectNoViolations(await scan(page, `${locale} confirmation, use cases`));

  // by the keyboard: the choice, then Next
  await page.getByLabel(text.useCase, { exact: true }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByLabel(text.useCase, { exact: true })).toBeChecked();
  await page.getByRole('button', { name: text.next, exact: true }).focus();
  await page.keyboard.press('Enter');
  await expectWholeWordsAt390(page, `the ${locale} wizard, graph databases`);
  await page.getByLabel(text.graphDb, { exact: true }).check();
  await page.getByRole('button', { name: text.next, exact: true }).click();

  // the names come from the invited full name split at its first space
  await expect(page.getByLabel(text.firstName, { exact: true })).toHaveValue('Jean');
  await expect(page.getByLabel(text.lastName, { exact: true })).toHaveValue('Pierre Martin');
  expectNoViolations(await scan(page, `${locale} confirmation, password`));
  const password = newPassword();
  await page.getByLabel(text.password, { exact: true }).fill(password);
  await page.getByLabel(text.confirmation, { exact: true }).fill(password);
  await page.getByRole('button', { name: text.next, exact: true }).click();

  await readAndAccept(page, text.eula, text.accept);
  expectNoViolations(await scan(page, `${locale} confirmation, privacy notice`));
  await readAndAccept(page, text.gdpr, text.accept);

  // the confirmation went by itself: signed in, on the new customer's page
  await expect(page).toHaveURL(new RegExp(`/${locale}/accounts/\\d+$`));
  const title = page.getByRole('heading', { level: 1, name: company });
  await expect(title).toBeVisible();
  const t = await textsOf(locale);
  // the welcome says the trial started, not that it is ready (its instance is still being made),
  // and it hides not the page's title
  const welcome = page.getByTestId('notification-success');
  await expect(welcome).toHaveText(t('signUpConfirmation.created', { company }));
  expect(overlap((await welcome.boundingBox())!, (await title.boundingBox())!), 'the welcome over the title').toBe(
    false,
  );
  const customerId = Number(new URL(page.url()).pathname.split('/').pop());
  const customer = await page.request.get(`/api/customers/${customerId}`);
  expect(await customer.json()).toMatchObject({
    name: company,
    selfService: true,
    paymentStatus: 'trial',
    yourRole: 'businessOwner',
  });
  await expectNoSidewaysScroll(page, 'the new customer page');

  // the trial's page opens on its instance and its subscription, with the trial's end; no empty
  // licence or version card
  const instances = page.getByTestId('instances-section');
  const subscription = page.getByTestId('subscription-section');
  await expect(instances).toBeVisible();
  await expect(page.getByTestId('licences-section')).toHaveCount(0);
  await expect(page.getByTestId('versions-section')).toHaveCount(0);
  const below = (a: { y: number }, b: { y: number }) => a.y > b.y;
  expect(
    below((await subscription.boundingBox())!, (await instances.boundingBox())!),
    'subscription under the instance',
  ).toBe(true);
  expect(below((await page.getByTestId('resources-section').boundingBox())!, (await subscription.boundingBox())!)).toBe(
    true,
  );
  const { currentPeriodEnd } = (await (await page.request.get(`/api/customers/${customerId}/subscription`)).json()) as {
    currentPeriodEnd: string;
  };
  await expect(page.getByTestId('subscription-status')).toHaveText(
    t('billing.subscription.phrases.trialOn', { date: formatDayMonthYear(currentPeriodEnd, locale) }),
  );
  await expect(subscription.getByRole('button', { name: t('billing.subscription.subscribe') })).toBeVisible();

  // its trial instance, ordered with the confirmation, becomes Ready by itself (the page polls while it
  // is in progress; each status's look is the section's unit tests' concern)
  const status = instances.getByTestId('instance-status');
  await expect(status).toHaveText(t('instances.status.provisioned'), { timeout: 20_000 });
  expectNoViolations(await scan(page, `${locale} the new customer page in trial`));

  // the link worked once
  await page.goto(link.href);
  await expect(page.getByTestId('error-page')).toBeVisible();
  return { email };
}

test('a visitor signs up, confirms from the mail and lands on the customer page in trial', async ({ page }) => {
  await signUpAndConfirm(page, 'en');
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the same in French, on a phone', async ({ page }) => {
    await signUpAndConfirm(page, 'fr');
  });
});

test('the sign-up tells a pending sign-up and an existing account apart, and sends a signed-in user home', async ({
  page,
}) => {
  const email = uniqueEmail('signup-twice');
  await page.goto('/en/sign-up');
  await fillSignUp(page, 'en', ['Pat', 'Pending', email, 'Pending Graphs', 'Analyst']);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: TEXTS.en.sent })).toBeVisible();

  await page.goto('/en/sign-up');
  await fillSignUp(page, 'en', ['Pat', 'Pending', email, 'Pending Graphs', 'Analyst']);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: TEXTS.en.pending })).toBeVisible();
  expectNoViolations(await scan(page, 'en sign-up pending'));

  const member = demoAccount('businessOwner');
  await page.goto('/en/sign-up');
  await fillSignUp(page, 'en', ['Bo', 'Owner', member.email, 'Acme', 'Owner']);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('heading', { level: 2, name: TEXTS.en.existing })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/en/login');
  expectNoViolations(await scan(page, 'en sign-up existing user'));

  // spec 2: the page is for visitors only
  await signInThroughApi(page, member);
  await page.goto('/en/sign-up');
  await expect(page).toHaveURL(/\/en\/(accounts\/\d+|select-account)$/);
});

test('the carousel moves on by itself for a visitor who does not ask for less motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/en/sign-up');
  await expect(page.getByTestId('carousel-slide-1')).toBeVisible();
  await expect(page.getByTestId('carousel-slide-2')).toBeVisible({ timeout: 5_000 });
  await page.getByTestId('carousel-rotation').click();
  // the pointer and the focus on the control hold it anyway: away from both, it stays stopped
  await page.getByRole('heading', { level: 1 }).click();
  await page.waitForTimeout(3_500);
  await expect(page.getByTestId('carousel-slide-2')).toBeVisible();
});

const overlap = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
