import { useCallback } from 'react';
import { useParams } from 'react-router';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../common/roles';
import { localizePath } from './routing';

export function useLocale(): Locale {
  const { locale } = useParams();
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

/** Turns a bare path ('/users') into the current locale's ('/fr/users'). */
export function useLocalize(): (path: string) => string {
  const locale = useLocale();
  return useCallback((path: string) => localizePath(locale, path), [locale]);
}
