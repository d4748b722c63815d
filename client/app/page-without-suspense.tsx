import { type ComponentType, useEffect, useState } from 'react';
import { DelayedLoader } from '../components/DelayedLoader';
import { lazyCode } from './lazy-code';

/**
 * A page that does not suspend: it shows the loader until its code has come, then itself, at once.
 * React shows content that suspended no sooner than 300 ms after its fallback appeared (React 19's
 * fallback throttle), so a lazy page costs every first navigation to it 300 ms however fast its
 * code comes; the customer page's budget is 300 ms in all (decision 052). A failure to fetch the
 * code is thrown from the render, to the same error boundary as a lazy page's.
 *
 * Whether the code is here is read as an external store (lazy-code.ts): the code preloaded at start
 * (routes.tsx preloadPage) can arrive after the page rendered its loader and before its effects run.
 */
export function pageWithoutSuspense<K extends string, M extends Record<K, ComponentType<any>>>(
  load: () => Promise<M>,
  name: K,
): { Page: ComponentType<Record<string, unknown>>; loadOnce: () => Promise<M> } {
  const code = lazyCode(load);

  function PageWithoutSuspense(props: Record<string, unknown>) {
    const module = code.useLoaded();
    const Page = module ? (module[name] as ComponentType<Record<string, unknown>>) : null;
    const [failure, setFailure] = useState<{ error: unknown } | null>(null);
    const waiting = Page === null;
    useEffect(() => {
      if (!waiting) return;
      let live = true;
      code.fetch().catch((error: unknown) => live && setFailure({ error }));
      return () => {
        live = false;
      };
    }, [waiting]);
    if (failure) throw failure.error;
    return Page ? <Page {...props} /> : <DelayedLoader />;
  }
  return { Page: PageWithoutSuspense, loadOnce: code.fetch };
}
