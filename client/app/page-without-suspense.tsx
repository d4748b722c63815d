import { type ComponentType, useEffect, useState, useSyncExternalStore } from 'react';
import { withDeadline } from './code-deadline';
import { DelayedLoader } from '../components/DelayedLoader';

/**
 * A page that does not suspend: it shows the loader until its code has come, then itself, at once.
 * React shows content that suspended no sooner than 300 ms after its fallback appeared (React 19's
 * fallback throttle), so a lazy page costs every first navigation to it 300 ms however fast its
 * code comes; the customer page's budget is 300 ms in all (decision 052). A failure to fetch the
 * code is thrown from the render, to the same error boundary as a lazy page's.
 *
 * Whether the code is here is read as an external store (useSyncExternalStore), not from an effect:
 * the first render runs as a transition, in slices that yield to the browser, so the code preloaded
 * at start (routes.tsx preloadPage) can arrive after the page rendered its loader and before its
 * effects run; React re-renders a component whose store changed in that gap, where an effect that
 * found the code already there would leave the loader on screen for good.
 */
export function pageWithoutSuspense<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
): { Page: ComponentType<Record<string, unknown>>; loadOnce: () => Promise<M> } {
  let loaded: ComponentType<Record<string, unknown>> | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  const snapshot = () => loaded;
  const loadOnce = () =>
    withDeadline(load()).then((module) => {
      if (!loaded) {
        loaded = module[name] as ComponentType<Record<string, unknown>>;
        for (const listener of [...listeners]) listener();
      }
      return module;
    });

  function PageWithoutSuspense(props: Record<string, unknown>) {
    const Page = useSyncExternalStore(subscribe, snapshot, snapshot);
    const [failure, setFailure] = useState<{ error: unknown } | null>(null);
    const waiting = Page === null;
    useEffect(() => {
      if (!waiting) return;
      let live = true;
      loadOnce().catch((error: unknown) => live && setFailure({ error }));
      return () => {
        live = false;
      };
    }, [waiting]);
    if (failure) throw failure.error;
    return Page ? <Page {...props} /> : <DelayedLoader />;
  }
  return { Page: PageWithoutSuspense, loadOnce };
}
