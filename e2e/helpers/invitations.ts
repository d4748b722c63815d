import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { CustomerList } from '../../common/api/customers';
import type { Locale, MemberRole } from '../../common/roles';
import { apiSession } from './api';
import { demoAccount } from './demo';
import { linkIn, waitForMail } from './mailbox';

/** The path of the links an invitation mail carries: /{locale}/invitation/{key}. */
export const INVITATION_LINK = /\/(en|fr)\/invitation\/[A-Za-z0-9_-]+$/;

/** A seeded customer none of the demo accounts belongs to, so joining it changes nobody's journeys. */
export const INVITED_CUSTOMER = 'Initech Security';

async function customerId(admin: APIRequestContext, name: string): Promise<number> {
  const answer = await admin.get(`/api/customers?filter=${encodeURIComponent(`${name} all!`)}`);
  expect(answer.status(), `GET /api/customers: ${await answer.text()}`).toBe(200);
  const found = ((await answer.json()) as CustomerList).data.find((customer) => customer.name === name);
  if (!found) throw new Error(`The demo seed has no customer ${name}`);
  return found.id;
}

/** An admin invites `email` through the API; answers the link of the mail the SMTP peer received. */
export async function inviteByMail(options: {
  email: string;
  fullName: string;
  role?: MemberRole;
  locale?: Locale;
}): Promise<{ link: URL; customerId: number }> {
  const admin = await apiSession(demoAccount('admin'));
  try {
    const target = await customerId(admin, INVITED_CUSTOMER);
    const since = new Date();
    const answer = await admin.post('/api/invitations', {
      data: {
        invitedEmail: options.email,
        invitedFullName: options.fullName,
        targetCustomer: target,
        targetRole: options.role ?? 'technicalContact',
        locale: options.locale ?? 'en',
      },
    });
    expect(answer.ok(), `POST /api/invitations: ${answer.status()} ${await answer.text()}`).toBe(true);
    const mail = await waitForMail({ to: options.email, since, link: INVITATION_LINK });
    return { link: linkIn(mail, INVITATION_LINK), customerId: target };
  } finally {
    await admin.dispose();
  }
}

/**
 * Reads a legal step of the invitation (EULA, GDPR notice) to its end by the keyboard (the 320 px
 * scroller takes the focus) and accepts it.
 */
export async function readAndAccept(page: Page, title: string, acceptLabel: string): Promise<void> {
  const scroller = page.getByRole('region', { name: title });
  await expect(scroller).toBeVisible();
  expect((await scroller.boundingBox())?.height).toBe(320);
  // The text arrives after the step opens: End before it is there scrolls nothing.
  const accept = page.getByRole('button', { name: acceptLabel, exact: true });
  await expect(accept).toBeEnabled();
  await expect.poll(() => scroller.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await scroller.focus();
  await page.keyboard.press('End');
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await accept.click();
}
