import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Button,
  CloseButton,
  Divider,
  Group,
  Indicator,
  Popover,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type MouseEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link } from 'react-router';
import type { MarkNotificationsReadBody, NotificationItem } from '../../common/api/notifications';
import { formatDateTime } from '../../common/format';
import type { Locale } from '../../common/roles';
import {
  firstPageOnly,
  loadedNotifications,
  markNotificationsRead,
  type NotificationPages,
  notificationKeys,
  notificationsQuery,
  unreadOf,
  withRead,
} from '../api/notifications';
import { DelayedLoader } from '../components/DelayedLoader';
import { apiErrorText } from '../components/forms';
import { BellIcon, CheckIcon } from '../components/icons';
import { LoadError } from '../components/LoadError';
import { notify, TOAST_COLORS, useToastEntries } from '../components/notify';
import { currentLocale } from '../i18n';
import { localizePath } from './routing';
import { notificationText } from './notification-text';

/** Above this, the bell says "99+". */
const MAX_SHOWN_COUNT = 99;

/** Marks notifications read at once on screen, then takes the unread count the server answers. */
function useMarkRead() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const update = (body: MarkNotificationsReadBody, count?: Parameters<typeof withRead>[2]) =>
    queryClient.setQueryData<NotificationPages>(notificationKeys.list, (data) => withRead(data, body, count));
  return useMutation({
    mutationFn: markNotificationsRead,
    onMutate: async (body) => {
      // a poll under way would bring the old statuses back
      await queryClient.cancelQueries({ queryKey: notificationKeys.list });
      update(body);
    },
    onSuccess: (count, body) => update(body, count),
    onError: (error) => {
      notify({ status: 'error', message: t('notificationCentre.markError', { error: apiErrorText(error, t) }) });
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list });
    },
  });
}

/**
 * The notification centre (spec section 3, "Notification"): the bell with the number of unread
 * notifications, asked for again every minute and when the window gets the focus back, and a popover
 * listing them newest first, a page at a time, each in the reader's language, linked to what it is
 * about. Opening a link or marking an entry marks it read. Below them, the messages (toasts) of this
 * session, so one that closed on its own can be read again.
 *
 * The popover keeps the focus while open (Escape or its close button give it back to the bell). It
 * opens on "Mark all read" when something is unread, else on its close button, which it always holds.
 */
/**
 * `defaultOpened`: its bell was pressed while this code was on its way (TopBar.tsx). It then mounts
 * closed and opens just after, once the bell it replaced has handed it the focus, so that closing it
 * gives the focus back to the bell, as for a centre opened by a press.
 */
export function NotificationCentre({ defaultOpened = false }: { defaultOpened?: boolean } = {}) {
  const { t, i18n } = useTranslation();
  const locale = currentLocale(i18n.language);
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (defaultOpened) setOpened(true);
  }, [defaultOpened]);
  const notifications = useInfiniteQuery(notificationsQuery());
  const items = loadedNotifications(notifications.data);
  const count = unreadOf(notifications.data);
  const unread = count?.unread ?? 0;
  const mark = useMarkRead();
  const titleId = useId();

  // Opened: the list as it is now. Closed: only the first page is kept, so the minute's poll asks for one.
  useEffect(() => {
    if (opened) void queryClient.refetchQueries({ queryKey: notificationKeys.list, type: 'active' });
    else queryClient.setQueryData<NotificationPages>(notificationKeys.list, firstPageOnly);
  }, [opened, queryClient]);

  // After "Show more", the focus goes to the first notification it brought.
  const listRef = useRef<HTMLDivElement>(null);
  const [focusFrom, setFocusFrom] = useState<{ index: number; pages: number } | null>(null);
  const pages = notifications.data?.pages.length ?? 0;
  useEffect(() => {
    if (focusFrom === null || notifications.isFetchingNextPage) return;
    if (pages <= focusFrom.pages && !notifications.isFetchNextPageError) return;
    const brought = listRef.current?.querySelectorAll<HTMLElement>('[data-testid="notification-centre-item"]');
    brought?.[focusFrom.index]?.focus();
    setFocusFrom(null);
  }, [focusFrom, pages, notifications.isFetchingNextPage, notifications.isFetchNextPageError]);

  const capped = count?.unreadCapped ?? false;
  const bellLabel = capped
    ? t('notificationCentre.openUnreadMany', { count: unread })
    : unread > 0
      ? t('notificationCentre.openUnread', { count: unread })
      : t('notificationCentre.open');

  const openLink = (item: NotificationItem) => {
    if (item.status === 'unread') mark.mutate({ ids: [item.id] });
    setOpened(false);
  };
  const markOne = (item: NotificationItem, event: MouseEvent<HTMLElement>) => {
    // the button goes with the entry's unread state: the focus stays on the entry
    event.currentTarget.closest('li')?.focus();
    mark.mutate({ ids: [item.id] });
  };

  return (
    <Popover
      position="bottom-end"
      // Never wider than a phone's screen.
      width="min(380px, calc(100vw - 16px))"
      shadow="md"
      withArrow
      trapFocus
      returnFocus
      opened={opened}
      onChange={setOpened}
    >
      {/* The target is the button itself, so that it carries aria-expanded and aria-controls. */}
      <Indicator
        label={capped || unread > MAX_SHOWN_COUNT ? `${MAX_SHOWN_COUNT}+` : unread}
        size={16}
        disabled={unread === 0}
        offset={4}
        color="red"
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            size="lg"
            onClick={() => setOpened((o) => !o)}
            aria-label={bellLabel}
            data-testid="notification-centre"
            data-unread={unread}
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown className="notification-centre-dropdown" aria-labelledby={titleId}>
        <Group justify="space-between" mb="xs" wrap="nowrap">
          <Text fw={600} id={titleId}>
            {t('notificationCentre.title')}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={unread === 0}
              onClick={() => mark.mutate({ all: true })}
              data-testid="notification-centre-mark-read"
            >
              {t('notificationCentre.markAllRead')}
            </Button>
            <CloseButton
              size="sm"
              aria-label={t('app.close')}
              onClick={() => setOpened(false)}
              data-testid="notification-centre-close"
            />
          </Group>
        </Group>
        {/* Focusable, so that a keyboard scrolls it even where it holds no link or button. */}
        <Box
          ref={listRef}
          className="notification-centre-scroll"
          role="region"
          aria-labelledby={titleId}
          tabIndex={0}
          mah="min(420px, 60vh)"
          style={{ overflowY: 'auto' }}
        >
          {notifications.isPending && <DelayedLoader testId="notification-centre-loader" />}
          <LoadError
            query={notifications}
            messageKey="notificationCentre.loadError"
            testId="notification-centre-error"
          />
          {notifications.isSuccess && items.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="notification-centre-empty">
              {t('notificationCentre.empty')}
            </Text>
          )}
          {items.length > 0 && (
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-labelledby={titleId}>
              {items.map((item) => (
                <NotificationEntry
                  key={item.id}
                  item={item}
                  locale={locale}
                  onOpenLink={openLink}
                  onMarkRead={markOne}
                />
              ))}
            </Stack>
          )}
          {notifications.hasNextPage && (
            <Button
              variant="default"
              size="compact-sm"
              mt="xs"
              loading={notifications.isFetchingNextPage}
              onClick={() => {
                setFocusFrom({ index: items.length, pages });
                void notifications.fetchNextPage();
              }}
              data-testid="notification-centre-more"
            >
              {t('notificationCentre.showMore')}
            </Button>
          )}
          <SessionToasts locale={locale} />
        </Box>
      </Popover.Dropdown>
    </Popover>
  );
}

interface NotificationEntryProps {
  item: NotificationItem;
  locale: Locale;
  onOpenLink: (item: NotificationItem) => void;
  onMarkRead: (item: NotificationItem, event: MouseEvent<HTMLElement>) => void;
}

function NotificationEntry({ item, locale, onOpenLink, onMarkRead }: NotificationEntryProps) {
  const { t } = useTranslation();
  const textId = useId();
  const unread = item.status === 'unread';
  const text = notificationText(t, locale, item);
  const content = (
    <>
      {text}
      {unread && (
        <>
          {' '}
          <VisuallyHidden>({t('notificationCentre.unread')})</VisuallyHidden>
        </>
      )}
    </>
  );
  return (
    <li tabIndex={-1} data-testid="notification-centre-item" data-id={item.id} data-status={item.status}>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        {/* What the dot shows, the words "(Unread)" and the weight of the text say too. */}
        <Box
          aria-hidden
          w={8}
          h={8}
          mt={7}
          style={{
            borderRadius: '50%',
            flexShrink: 0,
            background: unread ? 'var(--mantine-color-red-filled)' : 'transparent',
          }}
        />
        <div style={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }}>
          {item.link ? (
            <Anchor
              component={Link}
              to={localizePath(locale, item.link)}
              size="sm"
              fw={unread ? 600 : 400}
              id={textId}
              onClick={() => onOpenLink(item)}
              data-testid="notification-centre-link"
            >
              {content}
            </Anchor>
          ) : (
            <Text size="sm" fw={unread ? 600 : 400} id={textId}>
              {content}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            <time dateTime={item.date}>{formatDateTime(item.date, locale)}</time>
          </Text>
        </div>
        {unread && (
          <ActionIcon
            variant="subtle"
            size="md"
            aria-label={t('notificationCentre.markRead')}
            aria-describedby={textId}
            onClick={(event) => onMarkRead(item, event)}
            data-testid="notification-centre-mark-one"
          >
            <CheckIcon size={16} />
          </ActionIcon>
        )}
      </Group>
    </li>
  );
}

/** The toasts of this session (client/components/notify.ts), newest first; nothing when there were none. */
function SessionToasts({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const entries = useToastEntries();
  const titleId = useId();
  if (entries.length === 0) return null;
  return (
    <Stack gap="xs" mt="sm" data-testid="toast-history">
      <Divider />
      <Text size="xs" fw={600} c="dimmed" id={titleId}>
        {t('notificationCentre.sessionTitle')}
      </Text>
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-labelledby={titleId}>
        {entries.map((entry) => (
          <li key={entry.id} data-id={entry.id} data-testid="toast-history-item" data-status={entry.status}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Badge size="xs" color={TOAST_COLORS[entry.status]} variant="light" style={{ flexShrink: 0 }}>
                {t(`notificationCentre.status.${entry.status}`)}
              </Badge>
              <div style={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }}>
                {entry.title && (
                  <Text size="sm" fw={600}>
                    {entry.title}
                  </Text>
                )}
                <Text size="sm">{entry.message}</Text>
                <Text size="xs" c="dimmed">
                  <time dateTime={entry.date}>{formatDateTime(entry.date, locale)}</time>
                </Text>
              </div>
            </Group>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}
