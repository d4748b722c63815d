import { describe, expect, it, vi } from 'vitest';
import { createToastHistory } from './notify';

describe('toast history', () => {
  it('records every toast, newest first, and shows it', () => {
    const show = vi.fn();
    const store = createToastHistory(show);
    store.notify({ status: 'success', message: 'Saved' });
    store.notify({ status: 'error', message: 'Failed', title: 'Oops' });
    const entries = store.getSnapshot();
    expect(entries.map((e) => [e.status, e.message, e.title])).toEqual([
      ['error', 'Failed', 'Oops'],
      ['success', 'Saved', undefined],
    ]);
    expect(new Set(entries.map((e) => e.id)).size).toBe(2);
    expect(Number.isNaN(Date.parse(entries[0].date))).toBe(false);
    expect(show).toHaveBeenCalledTimes(2);
  });

  it('clears, telling subscribers', () => {
    const store = createToastHistory();
    const listener = vi.fn();
    store.subscribe(listener);
    store.notify({ status: 'info', message: 'Hello' });
    expect(listener).toHaveBeenCalledTimes(1);
    store.clear();
    expect(store.getSnapshot()).toEqual([]);
  });
});

describe('toast history persistence', () => {
  it('reloads what was saved', () => {
    let saved: unknown[] = [];
    const persistence = {
      load: () => saved as never[],
      save: (entries: readonly unknown[]) => {
        saved = [...entries];
      },
    };
    createToastHistory(() => {}, persistence).notify({ status: 'success', message: 'Kept' });
    const reloaded = createToastHistory(() => {}, persistence);
    expect(reloaded.getSnapshot().map((e) => e.message)).toEqual(['Kept']);
  });
});
