import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a new page may take to show its heading (its data loading) before the focus is left be. */
const HEADING_WAIT_MS = 10_000;

/** How long the heading keeps the focus against what closes after the page changed (a menu). */
const SETTLE_MS = 600;

/** Whether the page was opened by the sign-in page's redirect: a load, not a move inside the app. */
const cameFromSignIn = () => {
  try {
    const from = new URL(document.referrer);
    return from.origin === window.location.origin && /^\/[a-z]{2}\/login$/.test(from.pathname);
  } catch {
    return false;
  }
};

/**
 * Where the focus goes after a page change (WCAG 2.4.3): to the new page's heading, once it shows,
 * so that a keyboard or screen reader user starts on the page they asked for, never on the body
 * after the link they followed left the document. Only when the focus is still on the body, on
 * what led there or in the top bar: a field of the page or a dialog the user moved to keeps it. A page change is a new
 * path (a filter or a page of a list changes the query only); the first page is one after sign-in.
 */
export function useFocusOnNavigation(mainId: string): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    const initial = first.current;
    first.current = false;
    if (initial && !cameFromSignIn()) return;
    const trigger = document.activeElement;
    const started = Date.now();
    // once on the heading, a while longer: a menu closing gives the focus back to its button after
    let focusedAt: number | null = null;
    // a key or a click of the user's ends the wait: what they do next is theirs
    const stop = () => window.clearInterval(timer);
    const timer = window.setInterval(() => {
      const main = document.getElementById(mainId);
      const heading = main?.querySelector<HTMLElement>('h1');
      const active = document.activeElement;
      const done = () => window.clearInterval(timer);
      if (focusedAt !== null && (Date.now() - focusedAt > SETTLE_MS || active === heading)) {
        if (Date.now() - focusedAt > SETTLE_MS) done();
        return;
      }
      // left behind: on the body, on what led here, or in the top bar
      const left =
        !active ||
        active === document.body ||
        !active.isConnected ||
        active === trigger ||
        (main !== null && !main.contains(active) && active.closest('[role="dialog"]') === null);
      if (!left || Date.now() - started > HEADING_WAIT_MS) return done();
      if (!heading) return;
      // the heading itself, not a control: no Tab stop is added, the next Tab goes on from it
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      focusedAt ??= Date.now();
    }, 50);
    const userActed = () => {
      if (focusedAt !== null) stop();
    };
    window.addEventListener('keydown', userActed, true);
    window.addEventListener('pointerdown', userActed, true);
    return () => {
      stop();
      window.removeEventListener('keydown', userActed, true);
      window.removeEventListener('pointerdown', userActed, true);
    };
  }, [pathname, mainId]);
}
