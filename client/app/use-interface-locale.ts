import { useLayoutEffect } from 'react';
import type { Locale } from '../../common/roles';
import { switchLanguage, type TextsHolder } from '../i18n/load';
import { reloadIfReleased } from './reload';
import { LOCALE_STORAGE_KEY, storage } from './storage';

/** Puts the interface in the address's language, and remembers it for the next visit. */
export function useInterfaceLocale(i18n: TextsHolder, locale: Locale): void {
  useLayoutEffect(() => {
    // Texts that cannot be fetched (a new release, no network): reload once to pick up a release;
    // until then the page stays readable in the language it has.
    if (i18n.language !== locale)
      void switchLanguage(i18n, locale).then((switched) => {
        if (!switched) void reloadIfReleased(null);
      });
    document.documentElement.lang = locale;
    storage.set(LOCALE_STORAGE_KEY, locale);
  }, [i18n, locale]);
}
