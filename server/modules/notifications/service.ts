import { MAX_ID } from '../../../common/api/common';
import { PRODUCT_KEY } from '../../../common/api/catalogue';
import type {
  MarkNotificationsReadBody,
  NotificationItem,
  NotificationList,
  NotificationQuery,
  UnreadCount,
} from '../../../common/api/notifications';
import { type NotificationParamValue, UNREAD_COUNT_CAP } from '../../../common/notifications';
import { type Actor, type SessionUser, signedInUser } from '../../actor';
import type { AppContext } from '../../context';
import type { DB } from '../../db';
import { customersOfLicences } from '../licences/repo';
import { mayOpenProductPage } from './policy';
import * as repo from './repo';

/**
 * The notification centre (spec section 3, "Notification"): every signed-in user reads and marks
 * read their own notifications, and no one else's. The rows are written by the areas whose events
 * they tell (downloads, catalogue...), through repo.insertNotification.
 */

/** The stored parameters, keeping only texts and finite numbers (a row written by hand may hold more). */
function paramsOf(raw: string): Record<string, NotificationParamValue> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const params: Record<string, NotificationParamValue> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) params[name] = value;
  }
  return params;
}

/** An id a parameter holds, as a number or as digits; null for anything else. */
function idOf(value: NotificationParamValue | undefined): number | null {
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && id >= 1 && id <= MAX_ID ? id : null;
}

/**
 * The portal path a notification is about, from its parameters (nothing else is stored for it): its
 * customer's page, or that of its licence's customer, else its product's page for whom may open it;
 * null when it names none of them.
 */
function linkOf(
  params: Record<string, NotificationParamValue>,
  reader: SessionUser,
  licenceCustomers: Map<number, number>,
): string | null {
  const customerId = idOf(params.customerId) ?? licenceCustomers.get(idOf(params.licenceId) ?? 0) ?? null;
  if (customerId !== null) return `/accounts/${customerId}`;
  const { productKey } = params;
  if (typeof productKey === 'string' && PRODUCT_KEY.test(productKey) && mayOpenProductPage(reader))
    return `/products/${productKey}`;
  return null;
}

async function unreadCount(db: DB, userId: number): Promise<UnreadCount> {
  const count = await repo.countUnread(db, userId, UNREAD_COUNT_CAP);
  return { unread: count.total, unreadCapped: count.capped };
}

/** The caller's notifications, newest first, one page, with their unread count. */
export async function listNotifications(
  ctx: AppContext,
  actor: Actor,
  query: NotificationQuery,
): Promise<NotificationList> {
  const { user } = signedInUser(actor);
  const [page, unread] = await Promise.all([
    repo.listNotifications(ctx.db, user.id, { offset: query.pageOffset, length: query.pageLength }),
    unreadCount(ctx.db, user.id),
  ]);
  const rows = page.rows.map((row) => ({ row, params: paramsOf(row.params) }));
  // licences are looked up only for the notifications that name one and no customer
  const licenceIds = rows
    .filter(({ params }) => idOf(params.customerId) === null)
    .map(({ params }) => idOf(params.licenceId))
    .filter((id): id is number => id !== null);
  const licenceCustomers = await customersOfLicences(ctx.db, [...new Set(licenceIds)]);
  const data: NotificationItem[] = rows.map(({ row, params }) => ({
    id: row.id,
    date: row.createdAt,
    status: row.status,
    messageKey: row.messageKey,
    params,
    link: linkOf(params, user, licenceCustomers),
  }));
  return { data, offset: query.pageOffset, total: page.total, totalCapped: page.capped, ...unread };
}

/** Marks some of the caller's notifications read, or all of them; answers the unread count left. */
export async function markNotificationsRead(
  ctx: AppContext,
  actor: Actor,
  body: MarkNotificationsReadBody,
): Promise<UnreadCount> {
  const { user } = signedInUser(actor);
  await repo.markRead(ctx.db, user.id, body.all ? 'all' : { ids: body.ids ?? [] });
  return unreadCount(ctx.db, user.id);
}
