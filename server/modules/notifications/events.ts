import crypto from 'node:crypto';
import { ACCESS_LEVELS, type Platform } from '../../../common/domain';
import { formatDayMonthYear } from '../../../common/format';
import { utcToday } from '../../../common/licence-status';
import type { NotificationMessageKey, NotificationParams } from '../../../common/notifications';
import type { Locale, MemberRole } from '../../../common/roles';
import type { Actor } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import type { MailRequest } from '../../mail/types';
import { typesOpenTo } from '../downloads/policy';
import { emitWebhook } from '../webhooks/deliver';
import * as recipients from './recipients-repo';
import type { Recipient } from './recipients-repo';
import { insertNotification } from './repo';

/**
 * The events people are told of (spec section 3, the eight notification flags; docs/notifications.md).
 * A service emits one in the transaction of the change that causes it; a job fans it out to the
 * recipients (their notification centre and their mail), after that change committed. Each event's
 * payload names what it is about; the fan-out reads the rest (names, recipients) when it runs.
 */
type NotificationEvent =
  | { type: 'licenseExpiresSoon'; licenceId: number; endDate: string }
  | { type: 'licenseExpired'; licenceId: number; endDate: string }
  | {
      type: 'firstProductDownload';
      licenceId: number;
      versionId: number;
      platform: Platform;
      /** the e-mail of who downloaded, or null for the secret URL */
      by: string | null;
    }
  | { type: 'invitationAccepted'; customerId: number; memberUserId: number; role: MemberRole }
  | { type: 'newVersion'; versionId: number }
  | { type: 'newProductLicense'; licenceId: number }
  | { type: 'emailError'; email: string; error: string };

/** The job that fans an event out (server/job-kinds.ts declares it). */
export const NOTIFICATION_FANOUT_JOB = 'notifications.fanout';

interface FanoutPayload {
  /** unique per event: the same event told twice (a retried job) is told under one id */
  id: string;
  at: string;
  event: NotificationEvent;
}

declare module '../../jobs/types' {
  interface QueuedJobs {
    [NOTIFICATION_FANOUT_JOB]: FanoutPayload;
  }
}

/** Queues the telling of `event` in the caller's transaction: nobody hears of a change that rolled back. */
export async function emitNotification(ctx: AppContext, executor: DB, event: NotificationEvent): Promise<void> {
  await ctx.jobs.enqueue(executor, NOTIFICATION_FANOUT_JOB, {
    id: crypto.randomUUID(),
    at: new Date().toISOString(),
    event,
  });
}

/** `emitNotification` for many events at once, in a few statements (the daily licence end run). */
export async function emitNotifications(
  ctx: AppContext,
  executor: DB,
  events: readonly NotificationEvent[],
): Promise<void> {
  const at = new Date().toISOString();
  await ctx.jobs.enqueueMany(
    executor,
    NOTIFICATION_FANOUT_JOB,
    events.map((event) => ({ id: crypto.randomUUID(), at, event })),
  );
}

/** The pages a notification links to, in the recipient's language. */
export function pageLink(ctx: AppContext, locale: Locale, path: string): string {
  return `${ctx.config.baseUrl}/${locale}${path}`;
}

const settingsLink = (ctx: AppContext, locale: Locale) => pageLink(ctx, locale, '/settings');

type Told<K extends NotificationMessageKey> = {
  messageKey: K;
  /** the same for every recipient, or each recipient's (the customer it is told through) */
  params: NotificationParams<K> | ((recipient: Recipient) => NotificationParams<K>);
  /** the mail, given the recipient (its language, name, links) */
  mail: (recipient: Recipient) => MailRequest;
};

/** Writes the notification and queues the mail of each recipient, in one transaction. */
async function tell<K extends NotificationMessageKey>(
  ctx: AppContext,
  trx: DB,
  to: readonly Recipient[],
  told: Told<K>,
  at: string,
): Promise<void> {
  for (const recipient of to) {
    await insertNotification(trx, {
      userId: recipient.userId,
      messageKey: told.messageKey,
      params: typeof told.params === 'function' ? told.params(recipient) : told.params,
      createdAt: at,
    });
    await ctx.mail.send(told.mail(recipient), trx);
  }
}

const base = (ctx: AppContext, r: Recipient, path: string) => ({
  fullName: r.fullName,
  link: pageLink(ctx, r.preferredLocale, path),
  settingsLink: settingsLink(ctx, r.preferredLocale),
});

/** The fan-out job's work: who is told of `event`, and what. */
export async function fanOut(ctx: AppContext, _actor: Actor, payload: FanoutPayload): Promise<void> {
  const { event, at } = payload;
  await ctx.db.transaction().execute(async (trx) => {
    // the vendor's systems hear of it too, under the event's id (docs/webhooks.md)
    const { type, ...data } = event;
    await emitWebhook(ctx, trx, type, data, { id: payload.id, createdAt: at });
    switch (event.type) {
      case 'licenseExpiresSoon':
      case 'licenseExpired': {
        const licence = await recipients.licenceFacts(trx, event.licenceId);
        // gone, or renewed since: the end date told of is no longer the licence's
        if (!licence || licence.endDate !== event.endDate) return;
        const flag = event.type === 'licenseExpiresSoon' ? 'notifyLicenseExpiresSoon' : 'notifyLicenseExpired';
        const to = await recipients.customerRecipients(trx, { customerId: licence.customerId, flag });
        const facts = { customerName: licence.customerName, productName: licence.productName };
        await tell(
          ctx,
          trx,
          to,
          {
            messageKey: `notification.${event.type}`,
            params: {
              ...facts,
              customerId: licence.customerId,
              licenceId: licence.id,
              productKey: licence.productKey,
              endDate: licence.endDate,
            },
            mail: (r) => ({
              to: r.email,
              template: event.type,
              locale: r.preferredLocale,
              data: {
                ...base(ctx, r, `/accounts/${licence.customerId}`),
                ...facts,
                endDate: formatDayMonthYear(licence.endDate, r.preferredLocale),
              },
            }),
          },
          at,
        );
        return;
      }
      case 'firstProductDownload': {
        const licence = await recipients.licenceFacts(trx, event.licenceId);
        const version = await recipients.versionFacts(trx, event.versionId);
        if (!licence || !version) return;
        const to = await recipients.customerRecipients(trx, {
          customerId: licence.customerId,
          flag: 'notifyFirstProductDownload',
        });
        await tell(
          ctx,
          trx,
          to,
          {
            messageKey: 'notification.firstProductDownload',
            params: {
              customerId: licence.customerId,
              productKey: licence.productKey,
              productName: licence.productName,
              semVer: version.semVer,
              platform: event.platform,
            },
            mail: (r) => ({
              to: r.email,
              template: 'firstProductDownload',
              locale: r.preferredLocale,
              data: {
                ...base(ctx, r, `/accounts/${licence.customerId}`),
                customerName: licence.customerName,
                productName: licence.productName,
                semVer: version.semVer,
                platform: event.platform,
                by: event.by,
              },
            }),
          },
          at,
        );
        return;
      }
      case 'invitationAccepted': {
        const customer = await recipients.customerName(trx, event.customerId);
        const member = await recipients.userFacts(trx, event.memberUserId);
        if (!customer || !member) return;
        const to = await recipients.customerRecipients(trx, {
          customerId: event.customerId,
          flag: 'notifyInvitationAccepted',
          roles: TEAM_MANAGER_ROLES,
          exceptUserId: member.id,
        });
        await tell(
          ctx,
          trx,
          to,
          {
            messageKey: 'notification.invitationAccepted',
            params: {
              customerId: event.customerId,
              customerName: customer.name,
              memberFullName: member.fullName,
              memberEmail: member.email,
            },
            mail: (r) => ({
              to: r.email,
              template: 'invitationAccepted',
              locale: r.preferredLocale,
              data: {
                ...base(ctx, r, `/accounts/${event.customerId}`),
                memberFullName: member.fullName,
                memberEmail: member.email,
                customerName: customer.name,
                role: event.role,
              },
            }),
          },
          at,
        );
        return;
      }
      case 'newVersion': {
        const version = await recipients.versionFacts(trx, event.versionId);
        if (!version) return;
        const accessLevels = ACCESS_LEVELS.filter((accessLevel) => typesOpenTo({ accessLevel }).includes(version.type));
        const to = await recipients.newVersionRecipients(trx, {
          productKey: version.productKey,
          accessLevels,
          today: utcToday(),
        });
        await tell(
          ctx,
          trx,
          to,
          {
            messageKey: 'notification.newVersion',
            // the customer whose licence allows the version: its page is where the entry links, as the mail
            params: (r) => ({
              customerId: r.customerId,
              productKey: version.productKey,
              productName: version.productName,
              semVer: version.semVer,
            }),
            mail: (r) => ({
              to: r.email,
              template: 'newVersion',
              locale: r.preferredLocale,
              data: {
                ...base(ctx, r, `/accounts/${r.customerId}`),
                productName: version.productName,
                semVer: version.semVer,
              },
            }),
          },
          at,
        );
        return;
      }
      case 'newProductLicense': {
        const licence = await recipients.licenceFacts(trx, event.licenceId);
        if (!licence) return;
        const to = await recipients.customerRecipients(trx, {
          customerId: licence.customerId,
          flag: 'notifyNewProductLicense',
        });
        await tell(
          ctx,
          trx,
          to,
          {
            messageKey: 'notification.newProductLicense',
            params: {
              customerId: licence.customerId,
              customerName: licence.customerName,
              licenceId: licence.id,
              productKey: licence.productKey,
              productName: licence.productName,
            },
            mail: (r) => ({
              to: r.email,
              template: 'newProductLicense',
              locale: r.preferredLocale,
              data: {
                ...base(ctx, r, `/accounts/${licence.customerId}`),
                customerName: licence.customerName,
                productName: licence.productName,
              },
            }),
          },
          at,
        );
        return;
      }
      case 'emailError': {
        for (const customerId of await recipients.customersOfEmail(trx, event.email)) {
          const customer = await recipients.customerName(trx, customerId);
          if (!customer) continue;
          const to = (
            await recipients.customerRecipients(trx, {
              customerId,
              flag: 'notifyEmailError',
              roles: EMAIL_ERROR_ROLES,
            })
          ).filter((r) => r.email !== event.email);
          await tell(
            ctx,
            trx,
            to,
            {
              messageKey: 'notification.emailError',
              params: { customerId, customerName: customer.name, email: event.email },
              mail: (r) => ({
                to: r.email,
                template: 'emailError',
                locale: r.preferredLocale,
                data: {
                  ...base(ctx, r, `/accounts/${customerId}`),
                  customerName: customer.name,
                  email: event.email,
                  error: event.error.slice(0, 300),
                },
              }),
            },
            at,
          );
        }
        return;
      }
    }
  });
}

/** Who is told that someone joined (as the invitations' own rule has it): the team's managers. */
const TEAM_MANAGER_ROLES: readonly MemberRole[] = ['accountExecutive', 'businessOwner'];
/** Who is told that mail to a member bounced: the customer's business owners and account executive. */
const EMAIL_ERROR_ROLES: readonly MemberRole[] = ['accountExecutive', 'businessOwner'];
