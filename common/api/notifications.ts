import { z } from 'zod/mini';
import { NOTIFICATION_STATUSES } from '../domain';
import { MAX_NOTIFICATIONS_MARKED } from '../notifications';
import { listOf, MAX_ID, PageQuery } from './common';

/** `GET /api/notifications`: the caller's own, newest first, one page. */
export const NotificationQuery = z.object({
  pageOffset: PageQuery.shape.pageOffset,
  pageLength: PageQuery.shape.pageLength,
});
export type NotificationQuery = z.infer<typeof NotificationQuery>;

/**
 * One notification (spec section 3: id, date, status, message). The message is a key of
 * common/notifications.ts with its parameters, rendered in the reader's language; `link` is the
 * portal path (without the locale) of what it is about, read from its parameters, or null.
 */
export const NotificationItem = z.object({
  id: z.int(),
  date: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  messageKey: z.string().check(z.describe('a message key of the notification kinds, e.g. notification.newVersion')),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  link: z.nullable(z.string()),
});
export type NotificationItem = z.infer<typeof NotificationItem>;

/** The count of the caller's unread notifications, up to a cap (common/notifications UNREAD_COUNT_CAP). */
export const UnreadCount = z.object({
  unread: z.int(),
  unreadCapped: z.boolean(),
});
export type UnreadCount = z.infer<typeof UnreadCount>;

/** A page of the list, in the one envelope of lists, with the unread count beside it. */
export const NotificationList = z.extend(listOf(NotificationItem), UnreadCount.shape);
export type NotificationList = z.infer<typeof NotificationList>;

/**
 * `POST /api/notifications/read`: `{ ids }` (1 to 100 of the caller's notifications) or `{ all: true }`.
 * Ids that are not the caller's are left alone, as unknown ones are.
 */
export const MarkNotificationsReadBody = z
  .strictObject({
    ids: z.optional(
      z
        .array(z.int().check(z.positive(), z.maximum(MAX_ID)))
        .check(z.minLength(1), z.maxLength(MAX_NOTIFICATIONS_MARKED)),
    ),
    all: z.optional(z.literal(true)),
  })
  .check(
    z.refine((body) => (body.ids === undefined) !== (body.all === undefined), {
      message: 'notificationCentre.errors.idsOrAll',
    }),
  );
export type MarkNotificationsReadBody = z.infer<typeof MarkNotificationsReadBody>;
