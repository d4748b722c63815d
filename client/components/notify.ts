import { useSyncExternalStore } from 'react';
import { SUCCESS_NOTIFICATION_MS } from '../../common/constants';

/** A toast: a message of this session shown over the page for a while (not a notification of the server's). */
type ToastStatus = 'success' | 'error' | 'info';

interface ToastEntry {
  id: string;
  date: string;
  status: ToastStatus;
  title?: string;
  message: string;
}

interface NotifyInput {
  status: ToastStatus;
  message: string;
  title?: string;
}

const ERROR_NOTIFICATION_MS = 10_000;
export const TOAST_COLORS: Record<ToastStatus, string> = { success: 'teal', error: 'red', info: 'blue' };
const MAX_ENTRIES = 100;

type Listener = () => void;

interface ToastPersistence {
  load(): ToastEntry[];
  save(entries: readonly ToastEntry[]): void;
}

const SESSION_KEY = 'toast-history';

/** Kept per browser tab, so the list survives the reload that follows a lost session or a locale change. */
const sessionPersistence: ToastPersistence = {
  load() {
    try {
      const parsed: unknown = JSON.parse(window.sessionStorage.getItem(SESSION_KEY) ?? '[]');
      return Array.isArray(parsed) ? (parsed as ToastEntry[]) : [];
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

/**
 * The toasts of this session, newest first, kept so that one which closed on its own can be read again
 * (the notification centre's "Messages of this session").
 */
export function createToastHistory(show: (entry: ToastEntry) => void = () => {}, persistence?: ToastPersistence) {
  let entries: ToastEntry[] = persistence?.load() ?? [];
  let counter = 0;
  const listeners = new Set<Listener>();
  const emit = () => {
    persistence?.save(entries);
    for (const listener of listeners) listener();
  };
  return {
    notify(input: NotifyInput): ToastEntry {
      counter += 1;
      const entry: ToastEntry = {
        id: `n${Date.now().toString(36)}-${counter}`,
        date: new Date().toISOString(),
        ...input,
      };
      entries = [entry, ...entries].slice(0, MAX_ENTRIES);
      show(entry);
      emit();
      return entry;
    },
    clear(): void {
      entries = [];
      emit();
    },
    getSnapshot: (): readonly ToastEntry[] => entries,
    // An arrow, so useSyncExternalStore can take it detached from the store.
    subscribe: (listener: Listener): (() => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

let closeLabel = 'Close';

/** The toasts' close button needs a name in the interface's language; the app sets it on each change. */
export function setToastCloseLabel(label: string): void {
  closeLabel = label;
}

// Mantine's toasts are fetched with the first one shown, not with every page (decision 020).
export const toastHistory = createToastHistory((entry) => {
  void import('@mantine/notifications').then(({ notifications }) =>
    notifications.show({
      id: entry.id,
      closeButtonProps: { 'aria-label': closeLabel },
      color: TOAST_COLORS[entry.status],
      title: entry.title,
      message: entry.message,
      autoClose: entry.status === 'error' ? ERROR_NOTIFICATION_MS : SUCCESS_NOTIFICATION_MS,
      'data-testid': `notification-${entry.status}`,
    }),
  );
}, sessionPersistence);

/** Shows a toast (and keeps it in the session's history). */
export const notify = (input: NotifyInput) => toastHistory.notify(input);

export function useToastEntries(): readonly ToastEntry[] {
  return useSyncExternalStore(toastHistory.subscribe, toastHistory.getSnapshot);
}
