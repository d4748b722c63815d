import { getConfig, getProfile, profileSentWithPage } from '../api/auth';
import { detectLocale, splitLocale } from '../app/routing';
import { LOCALE_STORAGE_KEY, storage } from '../app/storage';
import { loadTranslations, setTranslationSource } from '../i18n/load';

/*
 * Imported first by the sign-in pages' entry, so that it runs before the rest of the entry: what the
 * first page needs (its texts, the session, the public settings) is asked for side by side at once.
 */
export const locale =
  splitLocale(window.location.pathname).locale ??
  detectLocale(storage.get(LOCALE_STORAGE_KEY), navigator.languages ?? [navigator.language]);
document.documentElement.lang = locale;

// Only the sign-in pages' sections of the texts (sign-in-texts.ts), for this language and the other.
setTranslationSource({
  en: () => import('../i18n/en.json?sign-in'),
  fr: () => import('../i18n/fr.json?sign-in'),
});
export const texts = loadTranslations(locale);
// Sent without a session, the page is marked so by the server: nobody to ask the API about.
const sent = profileSentWithPage();
export const session = { profile: sent === undefined ? getProfile() : Promise.resolve(sent), config: getConfig() };
// Read later by the page; a failure here is not one to report before then.
session.profile.catch(() => {});
session.config.catch(() => {});
