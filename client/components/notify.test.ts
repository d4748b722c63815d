import { describe, expect, it, vi } from 'vitest';
import { createNotificationStore } from './notify';

describe('notification store', () => {
  it('records every notification, newest first, and shows it', () => {
    const show = vi.fn();
    const store = createNotificationStore(show);
    store.notify({ status: 'success', message: 'Saved' });
    store.notify({ status: 'error', message: 'Failed', title: 'Oops' });
    const entries = store.getSnapshot();
    expect(entries.map((e) => [e.status, e.message, e.read])).toEqual([
      ['error', 'Failed', false],
      ['success', 'Saved', false],
    ]);
    expect(new Set(entries.map((e) => e.id)).size).toBe(2);
    expect(Number.isNaN(Date.parse(entries[0].date))).toBe(false);
    expect(show).toHaveBeenCalledTimes(2);
  });

  it('marks all read and clears, telling subscribers', () => {
    const store = createNotificationStore();
    const listener = vi.fn();
    store.subscribe(listener);
    store.notify({ status: 'info', message: 'Hello' });
    store.markAllRead();
    expect(store.getSnapshot().every((e) => e.read)).toBe(true);
    store.markAllRead();
    expect(listener).toHaveBeenCalledTimes(2);
    store.clear();
    expect(store.getSnapshot()).toEqual([]);
  });
});

describe('notification persistence', () => {
  it('reloads what was saved', () => {
    let saved: unknown[] = [];
    const persistence = {
      load: () => saved as never[],
      save: (entries: readonly unknown[]) => {
        saved = [...entries];
      },
    };
    createNotificationStore(() => {}, persistence).notify({ status: 'success', message: 'Kept' });
    const reloaded = createNotificationStore(() => {}, persistence);
    expect(reloaded.getSnapshot().map((e) => e.message)).toEqual(['Kept']);
  });
});
