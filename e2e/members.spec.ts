import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { CustomerList } from '../common/api/customers';
import type { MemberList } from '../common/api/members';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { apiSession, uniqueEmail } from './helpers/api';
import { demoAccount } from './helpers/demo';
import { INVITATION_LINK } from './helpers/invitations';
import { waitForMail } from './helpers/mailbox';
import { signInThroughApi } from './helpers/session';

/** A demo member of Acme Analytics the journeys change and put back. */
const MEMBER = 'lena.vogel@acme-analytics.example';

async function acmeId(session: APIRequestContext): Promise<number> {
  const answer = await session.get(`/api/customers?filter=${encodeURIComponent(DEMO_CUSTOMER_NAME)}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as CustomerList).data.find((c) => c.name === DEMO_CUSTOMER_NAME)!.id;
}

const membersSection = (page: Page) => page.getByTestId('members-section');

test('a project manager disables a member from the customer page', async ({ page }) => {
  const admin = await apiSession(demoAccount('admin'));
  const customerId = await acmeId(admin);
  try {
    await signInThroughApi(page, demoAccount('businessOwner'));
    await page.goto(`/en/accounts/${customerId}`);
    const row = membersSection(page).locator(`[data-testid="member-row"][data-email="${MEMBER}"]`);
    await expect(row).toContainText('Enabled');
    // nobody edits themself: the project manager's own row has no edit action
    const own = membersSection(page).locator(
      `[data-testid="member-row"][data-email="${demoAccount('businessOwner').email}"]`,
    );
    await expect(own).toBeVisible();
    await expect(own.getByTestId('member-edit')).toHaveCount(0);

    await row.getByTestId('member-edit').click();
    const dialog = page.getByRole('dialog', { name: 'Edit the member' });
    await dialog.getByLabel('Status').selectOption('disabled');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('notification-success')).toContainText('The status of Lena Vogel was changed.');
    await expect(row).toContainText('Disabled');

    const members = (await (await admin.get(`/api/customers/${customerId}/members`)).json()) as MemberList;
    expect(members.data.find((m) => m.email === MEMBER)?.status).toBe('disabled');
  } finally {
    const members = (await (await admin.get(`/api/customers/${customerId}/members`)).json()) as MemberList;
    const lena = members.data.find((m) => m.email === MEMBER);
    if (lena) await admin.patch(`/api/members/${lena.id}/status`, { data: { status: 'enabled' } });
    await admin.dispose();
  }
});

test('an admin invites a contact, who is mailed the link, and sees the pending row', async ({ page }) => {
  const admin = await apiSession(demoAccount('admin'));
  const customerId = await acmeId(admin);
  await admin.dispose();
  const email = uniqueEmail('members-invite');

  await signInThroughApi(page, demoAccount('admin'));
  await page.goto(`/en/accounts/${customerId}`);
  await membersSection(page).getByTestId('members-add').click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await expect(dialog.getByLabel('Role')).toHaveValue('technicalContact');
  await expect(dialog.getByLabel('Language of the invitation')).toHaveValue('en');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Full name').fill('Nina Contact');
  await dialog.getByLabel('Language of the invitation').selectOption('fr');
  const since = new Date();
  await dialog.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('notification-success')).toContainText(`An invitation was sent to ${email}.`);

  const row = membersSection(page).locator(`[data-testid="invitation-row"][data-email="${email}"]`);
  await expect(row).toContainText('Nina Contact');
  await expect(row.getByTestId('invitation-status')).toHaveText('Pending');
  await expect(row.getByTestId('invitation-copy')).toBeVisible();

  const mail = await waitForMail({ to: email, since, link: INVITATION_LINK });
  expect(mail.subject).toContain(DEMO_CUSTOMER_NAME);
  expect(mail.links.some((link) => /\/fr\/invitation\//.test(link))).toBe(true);

  // inviting the same address again is refused on the e-mail field, in the spec's words
  await membersSection(page).getByTestId('members-add').click();
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Full name').fill('Nina Contact');
  await dialog.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(dialog.getByTestId('members-modal-feedback')).toHaveText(
    'Oh snap... An invitation to this address is already pending: resend it instead.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // resending from the keyboard: the button keeps the focus through its wait
  await row.getByTestId('invitation-resend').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('notification-success').last()).toContainText(
    `The invitation was sent again to ${email}.`,
  );
  await expect(row.getByTestId('invitation-resend')).toBeFocused();

  // cancelling asks first, then the row goes
  await row.getByTestId('invitation-cancel').click();
  await page.getByTestId('invitation-cancel-yes').click();
  await expect(row).toHaveCount(0);
});
