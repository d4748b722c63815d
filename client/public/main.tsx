import { locale, session, texts } from './boot';
import './public.css';
import './sign-up.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { startFailed } from '../app/reload';
import { stylesLoaded } from '../app/styles-loaded';
import { keepTypedValues } from '../components/typed-before-hydration';
import { loadedTranslations } from '../i18n/load';
import { Translator } from '../i18n/translate';
import { PublicApp, preloadPublicPage } from './PublicApp';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

const pageCode = preloadPublicPage(window.location.pathname);

// A pre-rendered page (decision 024) is on screen already, styled: it is hydrated once its texts are
// there with the page's code (a page still on its way would leave its markup to be drawn again, and what
// is typed meanwhile lost). Otherwise public.html's own loading indicator stays until the texts and the
// style sheet arrive.
const prerendered = root.hasAttribute('data-prerendered');
Promise.all([texts, prerendered ? pageCode : stylesLoaded()]).then(
  () => {
    const app = (
      <StrictMode>
        <PublicApp
          translator={new Translator(locale, loadedTranslations())}
          session={session}
          hydrating={prerendered}
        />
      </StrictMode>
    );
    if (prerendered) {
      keepTypedValues(root);
      hydrateRoot(root, app);
    } else createRoot(root).render(app);
  },
  (error: unknown) => startFailed(root, error),
);
