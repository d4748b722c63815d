import { locale, session, texts } from './boot';
import './public.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { reloadOnce } from '../app/reload';
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
  (error: unknown) => {
    // The texts could not be fetched (a new release, the network): one reload, else say so in both
    // languages, as the texts needed to say it in one are what is missing.
    if (reloadOnce()) return;
    console.error(error);
    const message = document.createElement('p');
    message.setAttribute('role', 'alert');
    message.className = 'p-boot-failed';
    message.textContent =
      'The portal could not be loaded: check the connection and reload the page. / ' +
      'Le portail n’a pas pu être chargé : vérifiez la connexion et rechargez la page.';
    root.replaceChildren(message);
  },
);
