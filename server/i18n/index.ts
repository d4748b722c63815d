import i18next, { type TFunction } from 'i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../common/roles';
import { en, type ServerTexts } from './en';
import { fr } from './fr';

/** A no-break space, narrow before ; ! ? and full before : (Imprimerie nationale's rules). */
const NARROW_NBSP = '\u202F';
const NBSP = '\u00A0';

/**
 * French typography on a text of ours: the space before : ; ! ? becomes a no-break one. Applied to
 * the resources, not to a finished mail, so the values put in (a link's "?", a name) stay as given.
 */
export function frenchTypography(text: string): string {
  return text.replace(/ +([:;!?])/g, (_match, mark: string) => `${mark === ':' ? NBSP : NARROW_NBSP}${mark}`);
}

type Texts = { [key: string]: string | Texts };

function mapTexts(texts: Texts, transform: (text: string) => string): Texts {
  return Object.fromEntries(
    Object.entries(texts).map(([key, value]) => [
      key,
      typeof value === 'string' ? transform(value) : mapTexts(value, transform),
    ]),
  );
}

const resources: Record<Locale, { translation: ServerTexts }> = {
  en: { translation: en },
  fr: { translation: mapTexts(fr, frenchTypography) as ServerTexts },
};

const instance = i18next.createInstance();
void instance.init({
  resources,
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  // mails escape what they put in HTML themselves; the text part must stay as typed
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** The server's texts in one language (mails, later notifications). */
export function serverT(locale: Locale): TFunction {
  return instance.getFixedT(locale);
}

/** "7 days", "1 heure": a duration in whole days when it is one (and at least two), else in hours. */
export function durationText(locale: Locale, hours: number): string {
  const t = serverT(locale);
  return hours >= 48 && hours % 24 === 0
    ? t('duration.days', { count: hours / 24 })
    : t('duration.hours', { count: hours });
}
