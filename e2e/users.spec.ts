import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import type { User } from '../common/api/users';
import { RESET_PASSWORD_LINK, uniqueEmail } from './helpers/api';
import { demoAccount } from './helpers/demo';
import { linkIn, waitForMail } from './helpers/mailbox';
import { signInThroughApi } from './helpers/session';

/** The table row whose e-mail cell is exactly `email`, found through the page's search box. */
async function searchRow(page: Page, email: string): Promise<Locator> {
  await page.getByLabel('Search users', { exact: true }).fill(email);
  const rows = page.getByTestId('user-row');
  // The search is debounced and the previous page stays shown meanwhile: wait for the filtered list.
  await expect(rows).toHaveCount(1);
  const row = rows.filter({ has: page.getByRole('cell', { name: email, exact: true }) });
  await expect(row).toHaveCount(1);
  return row;
}

test('an admin adds a user, finds it, renames it, and cannot change their own status', async ({ page, baseURL }) => {
  const admin = demoAccount('admin');
  const email = uniqueEmail('users');
  const fullName = 'Ulysse Utilisateur';
  const renamed = 'Ulysse Renommé';

  await signInThroughApi(page, admin);
  await page.goto('/en');
  await page.getByTestId('nav-users').click();
  await expect(page).toHaveURL(/\/en\/users$/);
  await expect(page.getByRole('heading', { name: 'Users', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Add a user' });
  await expect(create).toBeVisible();
  await create.getByLabel('Full name', { exact: true }).fill(fullName);
  await create.getByLabel('Email', { exact: true }).fill(email);
  await create.getByLabel('Type', { exact: true }).selectOption({ label: 'Product manager' });
  await create.getByLabel('Preferred language', { exact: true }).selectOption({ label: 'Français' });

  const createdAt = new Date();
  const createCall = page.waitForResponse(
    (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/users',
  );
  await create.getByRole('button', { name: 'Save', exact: true }).click();
  const answer = await createCall;
  expect(answer.status(), `POST /api/users: ${await answer.text()}`).toBe(201);
  const created = (await answer.json()) as User;

  const createdMessage = `The user ${email} was created.`;
  await expect(page.getByTestId('notification-success').filter({ hasText: createdMessage })).toBeVisible();
  await expect(create).toBeHidden();

  let row = await searchRow(page, email);
  await expect(row.getByRole('cell')).toHaveText([
    String(created.id),
    fullName,
    email,
    'Product manager',
    'Enabled',
    // a new account has no second factor yet
    'Off 0 passkeys, authenticator app: no',
    '',
  ]);

  // The toast closes on its own; the centre keeps the message for later reading (its section of the
  // messages of this session, below the notifications).
  await page.getByTestId('notification-centre').click();
  const entry = page.getByTestId('toast-history-item').filter({ hasText: createdMessage });
  await expect(entry).toBeVisible();
  await expect(entry).toHaveAttribute('data-status', 'success');
  await page.keyboard.press('Escape');
  await expect(entry).toBeHidden();

  await row.getByRole('button', { name: `Edit ${fullName}`, exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit user' });
  await expect(edit).toBeVisible();
  await expect(edit.getByLabel('Email', { exact: true })).toHaveValue(email);
  await expect(edit.getByLabel('Preferred language', { exact: true })).toHaveValue('fr');
  // Someone else's status is editable: the contrast that makes the check on the admin's own row mean something.
  await expect(edit.getByLabel('Status', { exact: true })).toBeEnabled();
  const name = edit.getByLabel('Full name', { exact: true });
  await expect(name).toHaveValue(fullName);
  await name.fill(renamed);
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(
    page.getByTestId('notification-success').filter({ hasText: `The user ${email} was updated.` }),
  ).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(row.getByRole('cell')).toHaveText([
    String(created.id),
    renamed,
    email,
    'Product manager',
    'Enabled',
    'Off 0 passkeys, authenticator app: no',
    '',
  ]);

  row = await searchRow(page, admin.email);
  await row.getByRole('button', { name: `Edit ${admin.fullName}`, exact: true }).click();
  await expect(edit).toBeVisible();
  await expect(edit.getByLabel('Email', { exact: true })).toHaveValue(admin.email);
  await expect(edit.getByLabel('Status', { exact: true })).toBeDisabled();
  await expect(edit.getByText('You cannot change your own status.', { exact: true })).toBeVisible();
  await edit.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(edit).toBeHidden();

  // Created with French as the preferred language, so the account-created mail and its link are French.
  const mail = await waitForMail({ to: email, since: createdAt });
  expect(mail.subject).toBe('Votre compte sur le portail client');
  expect(mail.text).toContain(`Bonjour ${fullName},`);
  const link = linkIn(mail, RESET_PASSWORD_LINK);
  expect(link.origin).toBe(new URL(baseURL!).origin);
  expect(link.pathname).toMatch(/^\/fr\/reset-password\/[^/]+$/);
});
