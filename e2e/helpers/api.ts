import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, request } from '@playwright/test';
import type { User } from '../../common/api/users';
import type { Locale, StaffType } from '../../common/roles';
import type { Credentials } from './auth';
import { demoAccount } from './demo';
import { ENV, requireEnv } from './environment';
import { linkIn, type Mail, waitForMail } from './mailbox';

/** The path of the links that let a user choose a password: /{locale}/reset-password/{token}. */
export const RESET_PASSWORD_LINK = /\/(en|fr)\/reset-password\/[^/?#\s]+$/;

/** A password that follows the rule (15+ characters, lower, upper, digit, punctuation), new each call. */
export function newPassword(): string {
  return `E2e-Pass-${randomUUID().slice(0, 8)}-9!`;
}

/** An address nobody else in the run uses, so a journey's sign-ins and mails are its own. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${randomUUID().slice(0, 8)}@e2e.portal`;
}

/** An API client signed in as `credentials`, with its own cookie jar. Dispose of it after use. */
export async function apiSession(credentials: Credentials): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL: requireEnv(ENV.baseUrl) });
  const answer = await context.post('/api/auth/login', { data: credentials });
  expect(answer.status(), `API sign-in of ${credentials.email}: ${await answer.text()}`).toBe(200);
  return context;
}

interface NewStaffUser {
  user: User;
  /** the "choose your password" mail the portal sent on creation */
  welcomeMail: Mail;
  welcomeLink: URL;
}

/** Creates a staff user as `admin` (POST /api/users) and waits for the account-created mail. */
export async function createStaffUser(
  admin: APIRequestContext,
  options: { label: string; type: StaffType; fullname: string; preferredLocale?: Locale },
): Promise<NewStaffUser> {
  const since = new Date();
  const body = {
    email: uniqueEmail(options.label),
    fullname: options.fullname,
    type: options.type,
    preferredLocale: options.preferredLocale ?? 'en',
  };
  const answer = await admin.post('/api/users', { data: body });
  expect(answer.status(), `POST /api/users: ${await answer.text()}`).toBe(201);
  const user = (await answer.json()) as User;
  const welcomeMail = await waitForMail({ to: user.email, since, link: RESET_PASSWORD_LINK });
  return { user, welcomeMail, welcomeLink: linkIn(welcomeMail, RESET_PASSWORD_LINK) };
}

/** Chooses the first password through the API with the token of the welcome link. */
export async function setPasswordFromLink(link: URL, password: string): Promise<void> {
  const token = decodeURIComponent(link.pathname.split('/').pop() ?? '');
  const context = await request.newContext({ baseURL: requireEnv(ENV.baseUrl) });
  try {
    const answer = await context.patch('/api/auth/reset-password', { data: { passwordResetToken: token, password } });
    expect(answer.status(), `PATCH /api/auth/reset-password: ${await answer.text()}`).toBe(200);
  } finally {
    await context.dispose();
  }
}

/** A staff user created by the demo admin who has chosen a password: ready to sign in. */
export async function staffUserWithPassword(options: {
  label: string;
  type: StaffType;
  fullname: string;
}): Promise<{ user: User; password: string }> {
  const admin = await apiSession(demoAccount('admin'));
  try {
    const { user, welcomeLink } = await createStaffUser(admin, options);
    const password = newPassword();
    await setPasswordFromLink(welcomeLink, password);
    return { user, password };
  } finally {
    await admin.dispose();
  }
}
