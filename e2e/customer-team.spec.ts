import type { Browser } from '@playwright/test';
import { expect, test } from './fixtures';
import type { TFunction } from 'i18next';
import type { Customer } from '../common/api/customers';
import type { Locale } from '../common/roles';
import { apiSession, createStaffUser, newPassword, setPasswordFromLink, uniqueEmail } from './helpers/api';
import type { Credentials } from './helpers/auth';
import { demoAccount } from './helpers/demo';
import { INVITATION_LINK, readAndAccept } from './helpers/invitations';
import { linkIn, waitForMail } from './helpers/mailbox';
import { signInThroughApi } from './helpers/session';
import { chooseOption } from './helpers/ui';
import { MONTHS, textsOf } from './helpers/texts';

/** DD MMM YYYY HH:mm of an instant in the browser's time zone (playwright.config.ts: Europe/Paris). */
function logDate(iso: string, locale: Locale): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Paris',
      year: 'numeric',
      month: 'numeric',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.day} ${MONTHS[locale][Number(parts.month) - 1]} ${parts.year} ${parts.hour}:${parts.minute}`;
}

/** An admin of the journey's own, speaking `locale`, who has chosen a password. */
async function newAdmin(locale: Locale): Promise<Credentials & { fullname: string }> {
  const demoAdmin = await apiSession(demoAccount('admin'));
  try {
    const fullname = `Ada Team ${locale.toUpperCase()}`;
    const { user, welcomeLink } = await createStaffUser(demoAdmin, {
      label: `team-admin-${locale}`,
      type: 'admin',
      fullname,
      preferredLocale: locale,
    });
    const password = newPassword();
    await setPasswordFromLink(welcomeLink, password);
    return { email: user.email, password, fullname };
  } finally {
    await demoAdmin.dispose();
  }
}

/** The contact, in a browser of their own, joins from the link of the mail and creates their account. */
async function joinFromMail(
  browser: Browser,
  baseURL: string,
  t: TFunction,
  locale: Locale,
  contact: { email: string; fullname: string },
  since: Date,
  customer: Customer,
): Promise<void> {
  const mail = await waitForMail({ to: contact.email, since, link: INVITATION_LINK });
  expect(mail.subject).toContain(customer.name);
  const link = linkIn(mail, INVITATION_LINK);
  expect(link.origin).toBe(new URL(baseURL).origin);
  expect(link.pathname.startsWith(`/${locale}/invitation/`)).toBe(true);

  const context = await browser.newContext({ baseURL, locale: 'en-GB', timezoneId: 'Europe/Paris' });
  try {
    const page = await context.newPage();
    await page.goto(link.href);
    await expect(
      page.getByRole('heading', { level: 1, name: t('invitation.heading', { customer: customer.name }) }),
    ).toBeVisible();
    await page.getByRole('button', { name: t('invitation.join'), exact: true }).click();
    await readAndAccept(page, t('invitation.eulaTitle'), t('invitation.accept'));
    await readAndAccept(page, t('invitation.gdprTitle'), t('invitation.accept'));

    await expect(page.getByLabel(t('invitation.fullName'))).toHaveValue(contact.fullname);
    const password = newPassword();
    await page.getByLabel(t('invitation.password'), { exact: true }).fill(password);
    await page.getByLabel(t('invitation.confirmation'), { exact: true }).fill(password);
    await page.getByRole('button', { name: t('invitation.submit'), exact: true }).click();

    // The customer page, as its project manager: the team and its history are theirs to see.
    await expect(page).toHaveURL(new RegExp(`/${locale}/accounts/${customer.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: customer.name })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: t('account.members.title'), exact: true })).toBeVisible();
    await expect(
      page.getByRole('heading', { level: 2, name: t('account.recentActions.title'), exact: true }),
    ).toBeVisible();
    const team = page.getByRole('region', { name: t('members.table'), exact: true });
    const own = team.getByRole('row').filter({ hasText: contact.email });
    await expect(own).toContainText(t('roles.businessOwner'));
    await expect(own).toContainText(t('members.status.enabled'));
  } finally {
    await context.close();
  }
}

for (const locale of ['en', 'fr'] as const) {
  test(`an admin adds a customer and invites its project manager, who joins from the mail (${locale})`, async ({
    page,
    browser,
    baseURL,
  }) => {
    const t = await textsOf(locale);
    const admin = await newAdmin(locale);
    const run = Date.now().toString(36);
    const name = `Team ${locale} ${run}`;
    const contact = { email: uniqueEmail(`team-contact-${locale}`), fullname: `Paula Manager ${run}` };

    // 1. The admin adds a customer with a generated key, finds it and opens it.
    await signInThroughApi(page, admin);
    await page.goto(`/${locale}/customers`);
    await expect(page.getByRole('heading', { level: 1, name: t('customers.title') })).toBeVisible();
    await page.getByRole('button', { name: t('customers.add'), exact: true }).click();
    const createModal = page.getByRole('dialog', { name: t('customers.modal.createTitle') });
    await createModal.getByLabel(t('customers.modal.name'), { exact: true }).fill(name);
    await expect(createModal.getByLabel(t('customers.modal.customerKey'), { exact: true })).toHaveValue('');
    const createCall = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/customers',
    );
    await createModal.getByRole('button', { name: t('customers.modal.save'), exact: true }).click();
    const created = await createCall;
    expect(created.status(), `POST /api/customers: ${await created.text()}`).toBe(201);
    const customer = (await created.json()) as Customer;
    await expect(createModal).toBeHidden();
    const createdText = t('customers.modal.created', { name, customerKey: customer.customerKey });
    await expect(page.getByTestId('notification-success').filter({ hasText: createdText })).toBeVisible();

    const search = page.getByLabel(t('customers.search'), { exact: true });
    await search.fill(name);
    const cards = page.getByTestId('customer-card');
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(customer.customerKey);
    await cards.first().click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/accounts/${customer.id}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    // 2. The admin invites the contact as project manager and sees the pending invitation.
    const members = page.getByTestId('members-section');
    await members.getByRole('button', { name: t('members.add'), exact: true }).click();
    const inviteModal = page.getByRole('dialog', { name: t('members.inviteTitle') });
    await inviteModal.getByLabel(t('members.form.email'), { exact: true }).fill(contact.email);
    await inviteModal.getByLabel(t('members.form.fullname'), { exact: true }).fill(contact.fullname);
    await chooseOption(page, t('members.form.role'), t('roles.businessOwner'));
    await chooseOption(page, t('members.form.locale'), t(`language.${locale}`));
    const since = new Date();
    await inviteModal.getByRole('button', { name: t('members.form.invite'), exact: true }).click();
    await expect(inviteModal).toBeHidden();
    const invitedText = t('members.invited', { email: contact.email });
    await expect(page.getByTestId('notification-success').filter({ hasText: invitedText })).toBeVisible();
    // The invitations are a list apart from the members.
    const invitations = page.getByRole('region', { name: t('members.invitationsTable'), exact: true });
    const pending = invitations.getByRole('row').filter({ hasText: contact.email });
    await expect(pending).toHaveCount(1);
    await expect(pending).toContainText(contact.fullname);
    await expect(pending).toContainText(t('roles.businessOwner'));
    await expect(pending).toContainText(t('members.status.pending'));

    // 3. The contact joins from the mail, in a browser of their own.
    await joinFromMail(browser, baseURL!, t, locale, contact, since, customer);

    // 4. Back as the admin: the contact is a member now, and the history says who invited them.
    await page.reload();
    const team = page.getByRole('region', { name: t('members.table'), exact: true });
    const row = team.getByRole('row').filter({ hasText: contact.email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(contact.fullname);
    await expect(row).toContainText(t('roles.businessOwner'));
    await expect(row).toContainText(t('members.status.enabled'));
    await expect(row).not.toContainText(t('members.status.pending'));

    const history = page.getByRole('region', { name: t('recentActions.table'), exact: true });
    const joined = history
      .getByRole('row')
      .filter({ hasText: t('recentActions.joinedInvitedBy', { name: admin.fullname }) });
    await expect(joined).toHaveCount(1);
    await expect(joined).toContainText(contact.email);
    const when = joined.locator('time');
    const iso = await when.getAttribute('datetime');
    expect(iso).not.toBeNull();
    await expect(when).toHaveText(logDate(iso!, locale));
    // the earlier steps are in the history too, newest first
    await expect(history.getByRole('row').nth(1)).toContainText(
      t('recentActions.joinedInvitedBy', { name: admin.fullname }),
    );
    await expect(history.getByRole('row').filter({ hasText: t('recentActions.actions.inviteMember') })).toHaveCount(1);
    await expect(history.getByRole('row').filter({ hasText: t('recentActions.actions.createCustomer') })).toHaveCount(
      1,
    );
  });
}
