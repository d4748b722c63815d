import { useSyncExternalStore } from 'react';
import { SUCCESS_NOTIFICATION_MS } from '../../common/constants';

export type NotificationStatus = 'success' | 'error' | 'info';

export interface NotificationEntry {
  id: string;
  date: string;
  status: NotificationStatus;
  title?: string;
  message: string;
  read: boolean;
}

export interface NotifyInput {
  status: NotificationStatus;
  message: string;
  title?: string;
}

const ERROR_NOTIFICATION_MS = 10_000;
const COLORS: Record<NotificationStatus, string> = { success: 'teal', error: 'red', info: 'blue' };
const MAX_ENTRIES = 100;

type Listener = () => void;

export interface NotificationPersistence {
  load(): NotificationEntry[];
  save(entries: readonly NotificationEntry[]): void;
}

const SESSION_KEY = 'notifications';

/** Kept per browser tab, so the list survives the reload that follows a lost session or a locale change. */
const sessionPersistence: NotificationPersistence = {
  load() {
    try {
      const parsed: unknown = JSON.parse(window.sessionStorage.getItem(SESSION_KEY) ?? '[]');
      return Array.isArray(parsed) ? (parsed as NotificationEntry[]) : [];
    } catch {
      return [];
    }
  },
  save(entries) {
    try {
      window.sessionStorage.setItem(SESSION_KEY, JSON.stringify(entries));
    } catch {
      /* storage unavailable: the list lives in memory only */
    }
  },
};

/** The session's notifications, kept so the notification centre can list what was shown. */
export function createNotificationStore(
  show: (entry: NotificationEntry) => void = () => {},
  persistence?: NotificationPersistence,
) {
  let entries: NotificationEntry[] = persistence?.load() ?? [];
  let counter = 0;
  const listeners = new Set<Listener>();
  const emit = () => {
    persistence?.save(entries);
    for (const listener of listeners) listener();
  };
  return {
    notify(input: NotifyInput): NotificationEntry {
      counter += 1;
      const entry: NotificationEntry = {
        id: `n${Date.now().toString(36)}-${counter}`,
        date: new Date().toISOString(),
        read: false,
        ...input,
      };
      entries = [entry, ...entries].slice(0, MAX_ENTRIES);
      show(entry);
      emit();
      return entry;
    },
    markAllRead(): void {
      if (entries.every((e) => e.read)) return;
      entries = entries.map((e) => (e.read ? e : { ...e, read: true }));
      emit();
    },
    clear(): void {
      entries = [];
      emit();
    },
    getSnapshot: (): readonly NotificationEntry[] => entries,
    // An arrow, so useSyncExternalStore can take it detached from the store.
    subscribe: (listener: Listener): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let closeLabel = 'Close';

/** The toasts' close button needs a name in the interface's language; the app sets it on each change. */
export function setNotificationCloseLabel(label: string): void {
  closeLabel = label;
}

// Mantine's toasts are fetched with the first one shown, not with every page (decision 020).
export const notificationStore = createNotificationStore((entry) => {
  void import('@mantine/notifications').then(({ notifications }) =>
    notifications.show({
      id: entry.id,
      closeButtonProps: { 'aria-label': closeLabel },
      color: COLORS[entry.status],
      title: entry.title,
      message: entry.message,
      autoClose: entry.status === 'error' ? ERROR_NOTIFICATION_MS : SUCCESS_NOTIFICATION_MS,
      'data-testid': `notification-${entry.status}`,
    }),
  );
}, sessionPersistence);

export const notify = (input: NotifyInput) => notificationStore.notify(input);

export function useNotificationEntries(): readonly NotificationEntry[] {
  return useSyncExternalStore(notificationStore.subscribe, notificationStore.getSnapshot);
}
