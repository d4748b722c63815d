import {
  ActionIcon,
  Badge,
  Button,
  CloseButton,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../common/format';
import { BellIcon } from '../components/icons';
import { type NotificationStatus, notificationStore, useNotificationEntries } from '../components/notify';
import { currentLocale } from '../i18n';

const STATUS_COLORS: Record<NotificationStatus, string> = { success: 'teal', error: 'red', info: 'blue' };

/**
 * Lists what was notified during this session, so a message that closed on its own can be read again.
 * The popover keeps the focus while open (Escape or its close button give it back to the bell), so it
 * always holds something focusable: the close button, even when the list is empty and nothing is unread.
 */
export function NotificationCentre() {
  const { t, i18n } = useTranslation();
  const entries = useNotificationEntries();
  const unread = entries.filter((e) => !e.read).length;
  const locale = currentLocale(i18n.language);
  const [opened, setOpened] = useState(false);
  return (
    <Popover
      position="bottom-end"
      // Never wider than a phone's screen.
      width="min(360px, calc(100vw - 16px))"
      shadow="md"
      withArrow
      trapFocus
      returnFocus
      opened={opened}
      onChange={setOpened}
    >
      {/* The target is the button itself, so that it carries aria-expanded and aria-controls. */}
      <Indicator label={unread} size={16} disabled={unread === 0} offset={4} color="red">
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            size="lg"
            onClick={() => setOpened((o) => !o)}
            aria-label={unread ? t('notificationCentre.openUnread', { count: unread }) : t('notificationCentre.open')}
            data-testid="notification-centre"
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown className="notification-centre-dropdown">
        <Group justify="space-between" mb="xs" wrap="nowrap">
          <Text fw={600}>{t('notificationCentre.title')}</Text>
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={unread === 0}
              onClick={() => notificationStore.markAllRead()}
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
        {entries.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="notification-centre-empty">
            {t('notificationCentre.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {entries.map((entry) => (
                <li key={entry.id} data-id={entry.id} data-testid="notification-centre-item" data-status={entry.status}>
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <Badge
                      size="xs"
                      color={STATUS_COLORS[entry.status]}
                      variant={entry.read ? 'outline' : 'filled'}
                      style={{ flexShrink: 0 }}
                    >
                      {t(`notificationCentre.status.${entry.status}`)}
                    </Badge>
                    <div style={{ minWidth: 0, flex: 1, overflowWrap: 'anywhere' }}>
                      {entry.title && (
                        <Text size="sm" fw={600}>
                          {entry.title}
                        </Text>
                      )}
                      <Text size="sm" fw={entry.read ? 400 : 500}>
                        {entry.message}
                        {!entry.read && <VisuallyHidden> ({t('notificationCentre.unread')})</VisuallyHidden>}
                      </Text>
                      <Text size="xs" c="dimmed">
                        <time dateTime={entry.date}>{formatDateTime(entry.date, locale)}</time>
                      </Text>
                    </div>
                  </Group>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
