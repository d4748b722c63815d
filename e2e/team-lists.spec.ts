import { expect, test } from './fixtures';
import type { Customer, CustomerList } from '../common/api/customers';
import { DEMO_CUSTOMER_NAME } from '../server/seed/demo';
import { apiSession } from './helpers/api';
import { demoAccount } from './helpers/demo';
import { signInThroughApi } from './helpers/session';
import { textsOf } from './helpers/texts';

test.use({ viewport: { width: 1280, height: 800 } });

/**
 * A customer of its own with twelve pending invitations, Guest 01 (sent first) to Guest 12, and no
 * member: what a big team looks like without touching the demo customers.
 */
async function customerWithInvitations(run: string): Promise<number> {
  const admin = await apiSession(demoAccount('admin'));
  try {
    const created = await admin.post('/api/customers', { data: { name: `Big team ${run}` } });
    expect(created.status(), await created.text()).toBe(201);
    const customer = (await created.json()) as Customer;
    for (let n = 1; n <= 12; n++) {
      const label = String(n).padStart(2, '0');
      const answer = await admin.post('/api/invitations', {
        data: {
          invitedEmail: `e2e-guest-${String.fromCharCode(109 - n)}-${run}@e2e.portal`,
          invitedFullName: `Guest ${label}`,
          targetCustomer: customer.id,
        },
      });
      expect(answer.status(), await answer.text()).toBe(201);
    }
    return customer.id;
  } finally {
    await admin.dispose();
  }
}

test('invitations come ten at a time; their page, search and order live in the address', async ({ page }) => {
  const t = await textsOf('en');
  const run = Date.now().toString(36);
  const customerId = await customerWithInvitations(run);
  await signInThroughApi(page, demoAccount('admin'));
  await page.goto(`/en/accounts/${customerId}`);

  // The members apart, and empty: the section says how to invite someone.
  const members = page.getByTestId('members-list');
  await expect(members.getByTestId('members-empty')).toContainText(t('members.empty'));
  await expect(members.getByTestId('members-empty')).toContainText(t('members.emptyInvite', { add: t('members.add') }));

  const invitations = page.getByTestId('invitations-list');
  const rows = invitations.getByTestId('invitation-row');
  await expect(rows).toHaveCount(10);
  await expect(invitations.getByText(t('pagination.page', { page: 1, pageCount: 2 }))).toBeVisible();
  await expect(rows.first()).toContainText('Guest 12');

  // The next page is a step in the history: Back from another page brings it back.
  await invitations.getByRole('button', { name: t('pagination.next') }).click();
  await expect(rows).toHaveCount(2);
  await expect(page).toHaveURL(/[?&]invitations-page=2(&|$)/);
  await page.getByTestId('nav-customers').click();
  await expect(page).toHaveURL(/\/en\/customers/);
  await page.goBack();
  await expect(page).toHaveURL(/[?&]invitations-page=2(&|$)/);
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Guest 02');

  // A search starts again from the first page and is kept by a reload.
  await invitations.getByLabel(t('members.search.invitations')).fill('guest 1');
  await expect(page).toHaveURL(/[?&]invitations-q=guest\+1(&|$)/);
  await expect(page).not.toHaveURL(/invitations-page/);
  await expect(rows).toHaveCount(3);
  await page.reload();
  await expect(rows).toHaveCount(3);
  await expect(invitations.getByLabel(t('members.search.invitations'))).toHaveValue('guest 1');

  // A shared link with an order opens the same list.
  await page.goto(`/en/accounts/${customerId}?invitations-sort=email&invitations-q=guest`);
  await expect(invitations.getByTestId('invitations-sort')).toHaveValue('email');
  await expect(rows.first()).toContainText('Guest 12');
  await expect(rows.nth(1)).toContainText('Guest 11');
});

test('Back from a customer brings the customer list back with its search', async ({ page }) => {
  const t = await textsOf('en');
  await signInThroughApi(page, demoAccount('admin'));
  await page.goto('/en/customers');
  const search = page.getByLabel(t('customers.search'), { exact: true });
  await search.fill(DEMO_CUSTOMER_NAME);
  await expect(page).toHaveURL(/[?&]q=Acme\+Analytics(&|$)/);
  const cards = page.getByTestId('customer-card');
  await expect(cards).toHaveCount(1);
  await cards.first().click();
  await expect(page.getByRole('heading', { level: 1, name: DEMO_CUSTOMER_NAME })).toBeVisible();
  await page.goBack();
  await expect(search).toHaveValue(DEMO_CUSTOMER_NAME);
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(DEMO_CUSTOMER_NAME);
});

test('an end user is told what the customer page offers them and whom to ask', async ({ page }) => {
  const t = await textsOf('en');
  const admin = await apiSession(demoAccount('admin'));
  const answer = await admin.get(`/api/customers?filter=${encodeURIComponent(DEMO_CUSTOMER_NAME)}`);
  const acme = ((await answer.json()) as CustomerList).data.find((c) => c.name === DEMO_CUSTOMER_NAME)!;
  await admin.dispose();
  await signInThroughApi(page, demoAccount('endUser'));
  await page.goto(`/en/accounts/${acme.id}`);
  const notice = page.getByTestId('nothing-to-manage');
  await expect(notice.getByRole('heading', { name: t('account.nothingToManage.title') })).toBeVisible();
  await expect(notice.getByTestId('nothing-to-manage-settings')).toHaveAttribute('href', '/en/settings');
  await expect(notice.getByTestId('nothing-to-manage-ask')).toBeVisible();
});
