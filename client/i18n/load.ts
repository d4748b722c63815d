import { DEFAULT_LOCALE, isLocale, type Locale } from '../../common/roles';

/** A language's texts: en.json or fr.json, or some of their sections (the sign-in pages'). */
export type Texts = Record<string, unknown>;

/**
 * Each language's texts are their own chunk, fetched when that language is first used: an English
 * page does not carry the French texts (decision 020). Every key exists in both languages
 * (locales.test.ts), so there is no fallback language to load as well.
 *
 * Nothing here needs i18next: the sign-in pages load their texts through this module and translate
 * them without it (decision 054).
 */
export type TranslationSource = Record<Locale, () => Promise<{ default: Texts }>>;

/** A language's texts in two files: the sign-in pages' sections, which those pages load alone, and the others. */
async function bothParts(
  signIn: () => Promise<{ default: Texts }>,
  others: () => Promise<{ default: Texts }>,
): Promise<{ default: Texts }> {
  const [first, second] = await Promise.all([signIn(), others()]);
  return { default: { ...first.default, ...second.default } };
}

let importers: TranslationSource = {
  en: () =>
    bothParts(
      () => import('./en.json?sign-in'),
      () => import('./en.json?app'),
    ),
  fr: () =>
    bothParts(
      () => import('./fr.json?sign-in'),
      () => import('./fr.json?app'),
    ),
};

/** Where the languages' texts come from: a page that needs only some of them says so first. */
export function setTranslationSource(source: TranslationSource): void {
  importers = source;
}

const loaded = new Map<Locale, Texts>();

/** Makes a language's texts available without a fetch (tests register both at start). */
export function registerTranslations(locale: Locale, translations: Texts): void {
  loaded.set(locale, translations);
}

/** The languages whose texts are already here. */
export function loadedTranslations(): ReadonlyMap<Locale, Texts> {
  return loaded;
}

export async function loadTranslations(locale: Locale): Promise<Texts> {
  const known = loaded.get(locale);
  if (known) return known;
  const translations = (await importers[locale]()).default;
  loaded.set(locale, translations);
  return translations;
}

/** What holds the interface's texts: the application's i18next instance, or the sign-in pages' translator. */
export interface TextsHolder {
  readonly language: string;
  hasResourceBundle(language: string, namespace: string): boolean;
  addResourceBundle(language: string, namespace: string, texts: Texts): unknown;
  changeLanguage(language: string): Promise<unknown>;
}

/**
 * Gives the holder a language's texts, fetching them if need be; says whether they are there. When
 * they cannot be fetched (a new release replaced the file, the network is down) nothing changes.
 */
export async function ensureTranslations(
  holder: TextsHolder,
  locale: Locale,
  load: (locale: Locale) => Promise<Texts> = loadTranslations,
): Promise<boolean> {
  if (holder.hasResourceBundle(locale, 'translation')) return true;
  try {
    holder.addResourceBundle(locale, 'translation', await load(locale));
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
  holder: TextsHolder,
  locale: Locale,
  load: (locale: Locale) => Promise<Texts> = loadTranslations,
): Promise<boolean> {
  if (holder.language === locale) return true;
  if (!(await ensureTranslations(holder, locale, load))) return false;
  await holder.changeLanguage(locale);
  return true;
}

export function currentLocale(language: string | undefined): Locale {
  return isLocale(language) ? language : DEFAULT_LOCALE;
}
