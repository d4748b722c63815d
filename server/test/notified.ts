import type { FastifyInstance } from 'fastify';
import PostalMime from 'postal-mime';
import { expect } from 'vitest';
import type { NotificationList } from '../../common/api/notifications';
import type { NotificationMessageKey } from '../../common/notifications';
import type { Locale, MemberRole } from '../../common/roles';
import { updateFlags } from '../modules/notification-settings/repo';
import type { MailTemplate } from '../mail/types';
import type { NotifyFlag } from '../modules/notifications/recipients-repo';
import { addMembership, createInvitation, createUser, login } from './factories';
import { BASE_URL, request } from './harness';
import type { SmtpPeer } from './smtp-peer';

/**
 * What the tests of the notification events check (docs/notifications.md): the mails as the real SMTP
 * peer received them, read with a MIME parser; the notification centre through its API; and the
 * people of a customer who must hear nothing of an event.
 */

interface ReceivedMail {
  subject: string;
  text: string;
  html: string;
  /** the List-Unsubscribe header as sent */
  listUnsubscribe: string | null;
}

/** The mails the peer accepted for `email`, in the order it received them. */
export async function mailsTo(peer: SmtpPeer, email: string): Promise<ReceivedMail[]> {
  const mails: ReceivedMail[] = [];
  for (const raw of peer.received) {
    const parsed = await PostalMime.parse(raw);
    const to = (parsed.to ?? []).flatMap((address) => (address.group ?? [address]).map((one) => one.address));
    if (!to.some((address) => address?.toLowerCase() === email.toLowerCase())) continue;
    mails.push({
      subject: parsed.subject ?? '',
      text: parsed.text ?? '',
      html: parsed.html ?? '',
      listUnsubscribe: parsed.headers.find((header) => header.key === 'list-unsubscribe')?.value ?? null,
    });
  }
  return mails;
}

/** Every http(s) link of a text or of HTML, once each, in order. */
function linksOf(content: string): string[] {
  const found = content.match(/https?:\/\/[^\s<>"']+/g) ?? [];
  return [...new Set(found.map((link) => link.replace(/[.,;:]+$/, '')))];
}

/** The last lines of every notification mail, by language (the no-break space is French typography). */
const SETTINGS_LINE: Record<Locale, string> = {
  en: 'To stop these messages, change your notification settings: ',
  fr: 'Pour ne plus recevoir ces messages, modifiez vos paramètres de notification\u00A0: ',
};

/**
 * One notification mail as docs/notifications.md has it: its subject in the recipient's language, the
 * HTML part in that language too, a link to the page it is about and one to the settings page (both in
 * that language, in both parts, and no other), the settings line, and the List-Unsubscribe header.
 */
export function expectNotificationMail(
  mail: ReceivedMail | undefined,
  expected: { locale: Locale; subject: string; path: string },
): void {
  expect(mail, expected.subject).toBeDefined();
  const page = `${BASE_URL}/${expected.locale}${expected.path}`;
  const settings = `${BASE_URL}/${expected.locale}/settings`;
  expect(mail!.subject).toBe(expected.subject);
  expect(mail!.html).toContain(`<html lang="${expected.locale}">`);
  expect(linksOf(mail!.text)).toEqual([page, settings]);
  expect(linksOf(mail!.html)).toEqual([page, settings]);
  expect(mail!.html).toContain(`href="${page}"`);
  expect(mail!.text).toContain(`${SETTINGS_LINE[expected.locale]}${settings}`);
  expect(mail!.listUnsubscribe).toBe(`<${settings}>`);
}

/** The caller's notification centre, newest first (GET /api/notifications). */
export async function centreOf(app: FastifyInstance, cookie: string): Promise<NotificationList> {
  const response = await request(app, cookie, { method: 'GET', url: '/api/notifications?pageOffset=0&pageLength=50' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

interface Person {
  id: number;
  email: string;
  /** a session, for the people who can sign in */
  cookie: string;
  membershipId: number;
}

/** A signed-in member of the customer, in `locale`, with the flags given (the others ticked, the default). */
export async function member(
  app: FastifyInstance,
  customerId: number,
  role: MemberRole,
  options: { locale?: Locale; fullName?: string; flags?: Partial<Record<NotifyFlag, boolean>> } = {},
): Promise<Person> {
  const locale = options.locale ?? 'en';
  const user = await createUser(app.ctx.db, {
    type: role === 'accountExecutive' ? 'accountExecutive' : 'client',
    preferredLocale: locale,
    fullName: options.fullName ?? `${role} ${locale}`,
  });
  const membership = await addMembership(app.ctx.db, user.id, customerId, role);
  if (options.flags) await updateFlags(app.ctx.db, membership.id, options.flags);
  return { id: user.id, email: user.email, cookie: await login(app, user.email), membershipId: membership.id };
}

/**
 * The people of a customer who must hear nothing of an event told under `flag`, though they hold the
 * role that would hear of it: a member who unticked the flag, a disabled membership, a disabled user,
 * and someone with an account whose invitation to the customer is still pending.
 */
export async function bystanders(app: FastifyInstance, customerId: number, flag: NotifyFlag, role: MemberRole) {
  const { db } = app.ctx;
  const client = (fullName: string, status: 'enabled' | 'disabled' = 'enabled') =>
    createUser(db, { type: role === 'accountExecutive' ? 'accountExecutive' : 'client', fullName, status });
  const unticked = await client('Unticked Member');
  const { id: untickedMembership } = await addMembership(db, unticked.id, customerId, role);
  await updateFlags(db, untickedMembership, { [flag]: false });
  const disabledMember = await client('Disabled Membership');
  await addMembership(db, disabledMember.id, customerId, role, 'disabled');
  const disabledUser = await client('Disabled User', 'disabled');
  await addMembership(db, disabledUser.id, customerId, role);
  const invited = await client('Invited Person');
  await createInvitation(db, customerId, { email: invited.email, role });
  return { unticked, disabledMember, disabledUser, invited };
}

/** Of the bystanders, those who must hear nothing at all (the one who unticked a flag hears of the others). */
export function silentOnes(group: Awaited<ReturnType<typeof bystanders>>) {
  const { unticked: _unticked, ...silent } = group;
  return silent;
}

/**
 * Nobody of `people` was sent a mail or given a notification: none at all, or none of one kind (for a
 * member who unticked one flag and still hears of the others). The outbox is the record of every mail
 * queued, delivered or not.
 */
export async function expectToldNothing(
  app: FastifyInstance,
  people: Record<string, { id: number; email: string }>,
  only?: { template: MailTemplate; messageKey: NotificationMessageKey },
): Promise<void> {
  const { db } = app.ctx;
  for (const [who, person] of Object.entries(people)) {
    let mails = db.selectFrom('mailOutbox').select(['template', 'subject']).where('toAddress', '=', person.email);
    if (only) mails = mails.where('template', '=', only.template);
    expect(await mails.execute(), who).toEqual([]);
    let told = db.selectFrom('notifications').select('messageKey').where('userId', '=', person.id);
    if (only) told = told.where('messageKey', '=', only.messageKey);
    expect(await told.execute(), who).toEqual([]);
  }
}
