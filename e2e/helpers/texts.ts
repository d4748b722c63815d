import fs from 'node:fs';
import i18next, { type TFunction } from 'i18next';
import type { Locale } from '../../common/roles';

/** The texts of the interface, read from the client's own translation files. */
export async function textsOf(locale: Locale): Promise<TFunction> {
  const file = new URL(`../../client/i18n/${locale}.json`, import.meta.url);
  const translation = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const instance = i18next.createInstance();
  await instance.init({ lng: locale, resources: { [locale]: { translation } }, interpolation: { escapeValue: false } });
  return instance.t;
}

/** Month abbreviations of the dates the portal writes, written out here rather than taken from the product. */
export const MONTHS: Record<Locale, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
};
