import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createQueryClient } from './app/App';
import { detectLocale, splitLocale } from './app/routing';
import { LOCALE_STORAGE_KEY, storage } from './app/storage';
import { createI18n } from './i18n';

// Start in the locale of the address so the first paint is already in the right language.
const locale =
  splitLocale(window.location.pathname).locale ??
  detectLocale(storage.get(LOCALE_STORAGE_KEY), navigator.languages ?? [navigator.language]);
document.documentElement.lang = locale;

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <App i18n={createI18n(locale)} queryClient={createQueryClient()} />
  </StrictMode>,
);
