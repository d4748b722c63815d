import i18next, { type BackendModule, type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../../common/roles';
import { loadedTranslations, loadTranslations } from './load';

/*
 * The application's i18next. How the texts are fetched, per language, is in ./load (decision 020),
 * which the sign-in pages use without i18next (decision 054).
 */
export {
  currentLocale,
  ensureTranslations,
  registerTranslations,
  switchLanguage,
  type TranslationSource,
} from './load';

/** Loads a language i18next has not got yet, when the interface switches to it. */
const lazyTranslations: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, _namespace, callback) {
    if (!isLocale(language)) return callback(new Error(`No translations for ${language}`), false);
    loadTranslations(language).then(
      (translations) => callback(null, translations),
      (error: unknown) => callback(error instanceof Error ? error : String(error), false),
    );
  },
};

/** An i18next instance with the languages already loaded; others are fetched on the first switch. */
export function createI18n(locale: Locale = DEFAULT_LOCALE): I18n {
  const instance = i18next.createInstance();
  const resources = Object.fromEntries([...loadedTranslations()].map(([lng, translation]) => [lng, { translation }]));
  void instance
    .use(lazyTranslations)
    .use(initReactI18next)
    .init({
      resources,
      partialBundledLanguages: true,
      lng: locale,
      fallbackLng: false,
      supportedLngs: [...LOCALES],
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
  return instance;
}

/** The first paint is in the page's language: its texts are fetched before the app renders. */
export async function startI18n(locale: Locale): Promise<I18n> {
  await loadTranslations(locale);
  return createI18n(locale);
}
