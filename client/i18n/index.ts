import { DEFAULT_LOCALE, type Locale } from '../../common/roles';
import { loadedTranslations, loadTranslations } from './load';
import { Translator } from './translate';

/*
 * The application's texts holder: the translator the sign-in pages use (decision 054), over the
 * same texts, fetched per language by ./load (decision 020); no i18next (decision 074).
 */
export {
  currentLocale,
  ensureTranslations,
  registerTranslations,
  switchLanguage,
  type TranslationSource,
} from './load';

/** A translator with the languages already loaded; another one is fetched when the interface switches to it. */
export function createI18n(locale: Locale = DEFAULT_LOCALE): Translator {
  return new Translator(locale, loadedTranslations());
}

/** The first paint is in the page's language: its texts are fetched before the app renders. */
export async function startI18n(locale: Locale): Promise<Translator> {
  await loadTranslations(locale);
  return createI18n(locale);
}
