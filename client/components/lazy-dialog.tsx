import { type ComponentType, useEffect, useLayoutEffect, useState } from 'react';
import { lazyCode, whenIdle } from '../app/lazy-code';

/** Whatever opens and closes: a Mantine modal, a form in one. */
interface DialogProps {
  opened: boolean;
}

/** Every dialog's code fetch, for tests, which render without waiting for it (preloadDialogs). */
const fetches = new Set<() => Promise<unknown>>();

/**
 * A dialog whose code comes when it is first opened rather than with the page (decision 092): a
 * page's forms, their schemas and Mantine's Modal (focus trap, overlay, portal, scroll lock) are
 * not what it paints first. A closed dialog shows nothing, so nothing stands in for it; its code is
 * fetched once the browser is idle after the page has painted, so that it is usually here by the
 * time the dialog is opened, and at the latest when it is. A dialog opened before its code has come
 * opens as it arrives. The dialog first mounts closed, then opens: Mantine gives the focus back to
 * the control that opened it only when it sees `opened` change. Code that cannot be fetched is
 * thrown from the render, to the page's error boundary, as a page's own code is.
 */
export function lazyDialog<P extends DialogProps>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  // whether the code is here is read as an external store (lazy-code.ts)
  const code = lazyCode(load);
  const fetchCode = code.fetch;
  fetches.add(fetchCode);

  return function LazyDialog(props: P) {
    // opened at least once: from then on the dialog stays mounted (its closing transition, the focus it gives back)
    const [wanted, setWanted] = useState(props.opened);
    if (props.opened && !wanted) setWanted(true);
    const [failure, setFailure] = useState<{ error: unknown } | null>(null);
    const [primed, setPrimed] = useState(false);
    const Dialog = code.useLoaded();
    const here = Dialog !== null;

    useEffect(() => {
      if (here) return;
      let live = true;
      if (wanted) {
        fetchCode().catch((error: unknown) => live && setFailure({ error }));
      } else {
        whenIdle(() => {
          if (live) fetchCode().catch(() => {});
        });
      }
      return () => {
        live = false;
      };
    }, [wanted, here]);

    const mounted = wanted && here;
    useLayoutEffect(() => {
      if (mounted && !primed) setPrimed(true);
    }, [mounted, primed]);

    if (failure) throw failure.error;
    if (!mounted || !Dialog) return null;
    return <Dialog {...props} opened={primed && props.opened} />;
  };
}

/**
 * Fetches every dialog's code known so far: tests open dialogs at once, as a user does once it has
 * come. Code that cannot be fetched is left to the dialog's own attempt when it opens.
 */
export async function preloadDialogs(): Promise<void> {
  await Promise.allSettled([...fetches].map((fetchCode) => fetchCode()));
}
