import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '../../common/roles';
import en from './en.json';
import fr from './fr.json';

export const resources = { en: { translation: en }, fr: { translation: fr } } as const;

export function createI18n(locale: Locale = DEFAULT_LOCALE) {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance;
}

export function currentLocale(language: string | undefined): Locale {
  return isLocale(language) ? language : DEFAULT_LOCALE;
}
