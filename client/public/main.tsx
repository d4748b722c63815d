import { locale, session, texts } from './boot';
import './public.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startFailed } from '../app/reload';
import { stylesLoaded } from '../app/stylesLoaded';
import { createI18n } from '../i18n';
import { PublicApp, preloadPublicPage } from './PublicApp';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

preloadPublicPage(window.location.pathname);

// Until the texts and the style sheet arrive, public.html's own loading indicator stays on screen.
Promise.all([texts, stylesLoaded()]).then(
  () =>
    createRoot(root).render(
      <StrictMode>
        <PublicApp i18n={createI18n(locale)} session={session} />
      </StrictMode>,
    ),
  (error: unknown) => startFailed(root, error),
);
