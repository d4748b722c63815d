import type { Translate } from '../i18n/translate';
import { LOCALES, type Locale } from '../../common/roles';

/**
 * The language switch's button: the other language's own name, and an accessible name that starts
 * with it (so speech control finds it) and goes on in the current language.
 */
export function languageSwitchText(t: Translate, locale: Locale): { other: Locale; name: string; label: string } {
  const other = LOCALES.find((l) => l !== locale) ?? locale;
  const name = t(`language.${other}`);
  return { other, name, label: t('language.switchTo', { native: name, language: t(`language.names.${other}`) }) };
}
