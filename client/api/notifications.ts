import { type InfiniteData, infiniteQueryOptions } from '@tanstack/react-query';
import {
  type MarkNotificationsReadBody,
  type NotificationItem,
  NotificationList,
  UnreadCount,
} from '../../common/api/notifications';
import { DEFAULT_PAGE_LENGTH } from '../../common/pagination';
import { api } from './client';

/** The notification centre's page: "Show more" adds the next one below. */
const NOTIFICATIONS_PAGE_LENGTH = DEFAULT_PAGE_LENGTH;

/**
 * How often the bell asks for its unread count while the tab is shown (it also asks when the window
 * gets the focus back): new notifications come from other people's actions, and no push channel
 * tells the client of them.
 */
const NOTIFICATIONS_POLL_MS = 60_000;

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
};

export type NotificationPages = InfiniteData<NotificationList>;

const listNotifications = (pageOffset: number, signal?: AbortSignal) =>
  api.get('/notifications', {
    query: { pageOffset, pageLength: NOTIFICATIONS_PAGE_LENGTH },
    schema: NotificationList,
    signal,
  });

/** The offset of the page after `last`, or undefined when it was the last one. */
function nextOffset(last: NotificationList): number | undefined {
  const next = last.offset + last.data.length;
  return last.data.length > 0 && (next < last.total || last.totalCapped) ? next : undefined;
}

/**
 * The caller's notifications, newest first, a page at a time; each answer carries the unread count,
 * so the first page, asked for again every minute, keeps the bell's count up to date.
 */
export const notificationsQuery = () =>
  infiniteQueryOptions({
    queryKey: notificationKeys.list,
    queryFn: ({ pageParam, signal }) => listNotifications(pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchOnWindowFocus: true,
  });

export const markNotificationsRead = (body: MarkNotificationsReadBody) =>
  api.post('/notifications/read', body, { schema: UnreadCount });

/** The loaded notifications, newest first, each once (a page asked for after new ones arrived repeats some). */
export function loadedNotifications(data: NotificationPages | undefined): NotificationItem[] {
  const seen = new Set<number>();
  const items: NotificationItem[] = [];
  for (const item of data?.pages.flatMap((page) => page.data) ?? []) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    items.push(item);
  }
  return items;
}

/** The freshest unread count: the last page asked for (pages are asked for again in order). */
export const unreadOf = (data: NotificationPages | undefined): UnreadCount | null => {
  const last = data?.pages[data.pages.length - 1];
  return last ? { unread: last.unread, unreadCapped: last.unreadCapped } : null;
};

/** The cached pages with these notifications (or all) read, and the unread count when it is known. */
export function withRead(
  data: NotificationPages | undefined,
  which: MarkNotificationsReadBody,
  count?: UnreadCount,
): NotificationPages | undefined {
  if (!data) return data;
  const ids = new Set(which.ids ?? []);
  const marked = (item: NotificationItem) => which.all === true || ids.has(item.id);
  const newlyRead = new Set(
    loadedNotifications(data)
      .filter((i) => i.status === 'unread' && marked(i))
      .map((i) => i.id),
  );
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      ...(count ?? {
        unread: which.all === true ? 0 : Math.max(0, page.unread - newlyRead.size),
        unreadCapped: which.all === true ? false : page.unreadCapped,
      }),
      data: page.data.map((item) =>
        marked(item) && item.status === 'unread' ? { ...item, status: 'read' as const } : item,
      ),
    })),
  };
}

/** Only the first page: what the bell keeps asking for while the centre is closed. */
export function firstPageOnly(data: NotificationPages | undefined): NotificationPages | undefined {
  if (!data || data.pages.length <= 1) return data;
  return { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) };
}
