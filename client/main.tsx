import './app/mantine-styles';
import './app/app.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app/App';
import { startFailed } from './app/reload';
import { prefetchPageData } from './app/prefetch-page-data';
import { preloadPage } from './app/routes';
import { preloadTopBar } from './app/Shell';
import { configQuery, profileQuery, profileSentWithPage } from './api/auth';
import { detectLocale, splitLocale } from './app/routing';
import { LOCALE_STORAGE_KEY, storage } from './app/storage';
import { startI18n } from './i18n';
import { stylesLoaded } from './app/styles-loaded';
import { keepFocusThroughBusyControls } from './app/keep-focus';

// Start in the locale of the address so the first paint is already in the right language.
const locale =
  splitLocale(window.location.pathname).locale ??
  detectLocale(storage.get(LOCALE_STORAGE_KEY), navigator.languages ?? [navigator.language]);
document.documentElement.lang = locale;
// a busy button keeps the focus through its wait (app/keep-focus.ts)
keepFocusThroughBusyControls();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

// Until the language's texts and the styles arrive, index.html's own loading indicator stays on screen.
const ready = Promise.all([startI18n(locale), stylesLoaded()]);

// What the first page needs is asked for at once, side by side, rather than one after the other as
// the first render would discover it: the page's code, the visitor's session, the public settings,
// the top bar's code, and once the session is known the page's own data.
const queryClient = createQueryClient();
// The server sends the profile with the page when it can (plugins/spa.ts): no round trip to wait for.
const sentProfile = profileSentWithPage();
if (sentProfile !== undefined) queryClient.setQueryData(profileQuery().queryKey, sentProfile);
const profile = queryClient.fetchQuery(profileQuery());
profile.catch(() => {});
void queryClient.prefetchQuery(configQuery());
preloadPage(window.location.pathname);
prefetchPageData(queryClient, window.location, profile);
preloadTopBar(window.location.pathname, profile);

// The first render is the whole shell at once: as a transition React renders it in slices that
// yield to the browser every few milliseconds instead of one long task (decision 053).
ready.then(
  ([i18n]) => {
    const app = createRoot(root);
    startTransition(() =>
      app.render(
        <StrictMode>
          <App i18n={i18n} queryClient={queryClient} />
        </StrictMode>,
      ),
    );
  },
  (error: unknown) => startFailed(root, error),
);
