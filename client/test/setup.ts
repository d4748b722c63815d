import { afterEach, beforeEach, vi } from 'vitest';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import { registerTranslations } from '../i18n';
import { failOnUnexpectedConsole } from './console';
import { fakeMatchMedia } from './media';

// Each test fails on a console.error or console.warn it did not expect (client/test/console.ts).
failOnUnexpectedConsole();

// The app fetches a language's texts when first used; tests have both at hand from the start.
registerTranslations('en', en);
registerTranslations('fr', fr);

// Only tests that opted into jsdom get the DOM helpers; common/ tests in Node skip all of this.
if (typeof window !== 'undefined') {
  // React warns of a state update outside act() only where this says the tests run under act().
  // A test that lets React schedule as in a browser sets it to false and puts it back.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  // Mantine reads these browser APIs, which jsdom does not implement.
  if (!window.matchMedia) {
    window.matchMedia = fakeMatchMedia();
  }
  if (!('ResizeObserver' in window)) {
    class ResizeObserverStub {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = ResizeObserverStub;
  }
  // Chartist draws at its SVG's clientWidth, which jsdom, laying nothing out, gives as 0 (the height
  // it takes from its options): the analytics charts are drawn as in a box 600 px wide.
  Object.defineProperty(SVGSVGElement.prototype, 'clientWidth', { configurable: true, get: () => 600 });
  const { cleanup, configure } = await import('@testing-library/react');
  // The session's toast history is a module-level store: with isolate: false, a toast raised by one
  // file's test would still be listed in the next file's.
  const { toastHistory } = await import('../components/notify');
  // findBy and waitFor give up after one second by default, which a busy two-core machine can
  // exceed while a lazy chunk or a debounced request is on its way; what they wait for is unchanged.
  configure({ asyncUtilTimeout: 5000 });
  // A dialog's code comes when it is first opened, or once the browser is idle (components/lazy-dialog.tsx):
  // here it has come, as it usually has by the time a user opens one. lazy-dialog.test.tsx tests the wait.
  const { preloadDialogs } = await import('../components/lazy-dialog');
  // the tooltips' code too, which comes once the page has painted (components/Tooltip.tsx)
  const { preloadTooltip } = await import('../components/Tooltip');
  // and the top bar's menus, which come once the page has painted (app/TopBar.tsx)
  const { topBarMenus } = await import('../app/top-bar-menus-code');
  beforeEach(() => Promise.all([preloadDialogs(), preloadTooltip(), topBarMenus.fetch()]));
  afterEach(() => {
    cleanup();
    toastHistory.clear();
    // Fake APIs are installed per test; storage would otherwise carry one test's session into the next.
    vi.unstubAllGlobals();
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
}
