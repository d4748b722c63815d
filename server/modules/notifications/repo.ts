import type { NotificationStatus } from '../../../common/domain';
import type { NotificationMessageKey } from '../../../common/notifications';
import { countCap } from '../../../common/pagination';
import { type DB, nowIso } from '../../db';
import { countUpTo } from '../../db/search';

/**
 * Notifications are stored as a message key and its parameters, and rendered in the reader's
 * language when listed, so a change of language or wording applies to past notifications too.
 */

export async function insertNotification(
  db: DB,
  notification: {
    userId: number;
    messageKey: NotificationMessageKey;
    params?: Record<string, string | number>;
    createdAt?: string;
    status?: NotificationStatus;
  },
) {
  return db
    .insertInto('notifications')
    .values({
      userId: notification.userId,
      messageKey: notification.messageKey,
      params: JSON.stringify(notification.params ?? {}),
      status: notification.status ?? 'unread',
      createdAt: notification.createdAt ?? nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

interface NotificationRow {
  id: number;
  messageKey: string;
  params: string;
  status: NotificationStatus;
  createdAt: string;
}

const ofUser = (db: DB, userId: number) => db.selectFrom('notifications').where('userId', '=', userId);

/**
 * One page of a user's notifications, newest first (the id orders those of one instant), with their
 * number counted up to a cap (decision 013). Served by notifications_user_id_created_at_id_idx.
 */
export async function listNotifications(db: DB, userId: number, page: { offset: number; length: number }) {
  const [rows, count] = await Promise.all([
    ofUser(db, userId)
      .select(['id', 'messageKey', 'params', 'status', 'createdAt'])
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .limit(page.length)
      .offset(page.offset)
      .execute(),
    countUpTo(db, ofUser(db, userId), countCap(page.offset, page.length)),
  ]);
  return { rows: rows as NotificationRow[], total: count.total, capped: count.capped };
}

/** A user's unread notifications, counted up to `cap`; served by notifications_user_id_status_created_at_idx. */
export function countUnread(db: DB, userId: number, cap: number) {
  return countUpTo(db, ofUser(db, userId).where('status', '=', 'unread'), cap);
}

/**
 * Marks read the user's unread notifications among `ids`, or all of them: another user's ids match
 * nothing, as unknown ones do. Answers how many changed.
 */
export async function markRead(db: DB, userId: number, which: { ids: readonly number[] } | 'all'): Promise<number> {
  let query = db
    .updateTable('notifications')
    .set({ status: 'read' })
    .where('userId', '=', userId)
    .where('status', '=', 'unread');
  if (which !== 'all') query = query.where('id', 'in', [...which.ids]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
