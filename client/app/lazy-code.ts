import { useSyncExternalStore } from 'react';
import { withDeadline } from './code-deadline';

/** Code fetched once, when first asked for, that components render with once it has come. */
export interface LazyCode<T> {
  /** Fetches the code (once: later calls share the first; a failed fetch is tried again by the next call). */
  fetch: () => Promise<T>;
  /** The code if it has come, else null; the component renders again when it comes. */
  useLoaded: () => T | null;
}

/**
 * Code that comes after the page's own: a page (page-without-suspense.tsx), a dialog
 * (lazy-dialog.tsx), a tooltip (components/Tooltip.tsx). A fetch that takes longer than the code
 * deadline fails (code-deadline.ts).
 *
 * Whether the code is here is read as an external store (useSyncExternalStore), not from an effect:
 * the first render runs as a transition, in slices that yield to the browser, so code fetched
 * earlier can arrive after a component rendered without it and before its effects run; React renders
 * again a component whose store changed in that gap, where an effect that found the code already
 * there would have left the component without it for good.
 */
export function lazyCode<T>(load: () => Promise<T>): LazyCode<T> {
  let loaded: T | null = null;
  let pending: Promise<T> | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const snapshot = () => loaded;
  const fetch = () => {
    pending ??= withDeadline(load()).then(
      (code) => {
        loaded ??= code;
        for (const listener of [...listeners]) listener();
        return code;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  return { fetch, useLoaded: () => useSyncExternalStore(subscribe, snapshot, snapshot) };
}

/** Runs `task` once the browser is idle: after the first paint, when nothing more urgent waits. */
export function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 5000 });
  else setTimeout(task, 1000);
}
