import type { NotificationStatus } from '../../../common/domain';
import { type DB, nowIso } from '../../db';

/**
 * Notifications are stored as a message key and its parameters, and rendered in the reader's
 * language when listed, so a change of language or wording applies to past notifications too.
 */

export async function insertNotification(
  db: DB,
  notification: { userId: number; messageKey: string; params?: Record<string, string | number>; createdAt?: string },
) {
  return db
    .insertInto('notifications')
    .values({
      userId: notification.userId,
      messageKey: notification.messageKey,
      params: JSON.stringify(notification.params ?? {}),
      status: 'unread',
      createdAt: notification.createdAt ?? nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** The notification centre's read, newest first; served by notifications_user_id_status_created_at_idx. */
export function listNotifications(db: DB, userId: number, options: { status?: NotificationStatus; limit: number }) {
  let query = db
    .selectFrom('notifications')
    .select(['id', 'messageKey', 'params', 'status', 'createdAt'])
    .where('userId', '=', userId);
  if (options.status) query = query.where('status', '=', options.status);
  return query.orderBy('createdAt', 'desc').limit(options.limit).execute();
}
