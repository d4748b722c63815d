import i18next, { type BackendModule, type i18n as I18n, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../../common/roles';

/**
 * Each language's texts are their own chunk, fetched when that language is first used: an English
 * page does not carry the French texts (decision 020). Every key exists in both languages
 * (locales.test.ts), so there is no fallback language to load as well.
 */
export type TranslationSource = Record<Locale, () => Promise<{ default: ResourceKey }>>;

let importers: TranslationSource = {
  en: () => import('./en.json'),
  fr: () => import('./fr.json'),
};

/** Where the languages' texts come from: a page that needs only some of them says so first. */
export function setTranslationSource(source: TranslationSource): void {
  importers = source;
}

const loaded = new Map<Locale, ResourceKey>();

/** Makes a language's texts available without a fetch (tests register both at start). */
export function registerTranslations(locale: Locale, translations: ResourceKey): void {
  loaded.set(locale, translations);
}

export async function loadTranslations(locale: Locale): Promise<ResourceKey> {
  const known = loaded.get(locale);
  if (known) return known;
  const translations = (await importers[locale]()).default;
  loaded.set(locale, translations);
  return translations;
}

/**
 * Gives the instance a language's texts, fetching them if need be; says whether they are there. When
 * they cannot be fetched (a new release replaced the file, the network is down) nothing changes.
 */
export async function ensureTranslations(
  instance: I18n,
  locale: Locale,
  load: (locale: Locale) => Promise<ResourceKey> = loadTranslations,
): Promise<boolean> {
  if (instance.hasResourceBundle(locale, 'translation')) return true;
  try {
    instance.addResourceBundle(locale, 'translation', await load(locale));
    return true;
  } catch {
    return false;
  }
}

/**
 * Switches the interface to a language once its texts are there: when they cannot be fetched it stays
 * in the language it has, rather than switching and showing every text as its key; says whether it
 * switched.
 */
export async function switchLanguage(
  instance: I18n,
  locale: Locale,
  load: (locale: Locale) => Promise<ResourceKey> = loadTranslations,
): Promise<boolean> {
  if (instance.language === locale) return true;
  if (!(await ensureTranslations(instance, locale, load))) return false;
  await instance.changeLanguage(locale);
  return true;
}

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
  const resources = Object.fromEntries([...loaded].map(([lng, translation]) => [lng, { translation }]));
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

export function currentLocale(language: string | undefined): Locale {
  return isLocale(language) ? language : DEFAULT_LOCALE;
}
