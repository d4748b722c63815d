import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import type { Locale } from '../../common/roles';
import en from './en.json';
import fr from './fr.json';
import { createTranslate, Translator } from './translate';

const TEXTS = { en, fr } as const;

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

function leaf(root: unknown, key: string): string {
  return String(key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], root));
}

/** i18next as the application sets it up (client/i18n/index.ts). */
function i18nextT(locale: Locale) {
  const instance = i18next.createInstance();
  void instance.init({
    resources: { [locale]: { translation: TEXTS[locale] } },
    lng: locale,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
  return instance.t;
}

/** A value for each of a text's placeholders: a number where it is formatted or counts, else a name. */
function valuesFor(text: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [, inner] of text.matchAll(/\{\{(.+?)\}\}/g)) {
    const [name, format] = inner.split(',').map((part) => part.trim());
    values[name] = format === 'number' || name === 'count' ? 12345.5 : `<${name} & "value">`;
  }
  return values;
}

describe('the client’s translator', () => {
  for (const locale of ['en', 'fr'] as const) {
    it(`writes every text as i18next does, with its placeholders filled (${locale})`, () => {
      const expected = i18nextT(locale);
      const t = createTranslate(locale, TEXTS[locale]);
      for (const key of keysOf(TEXTS[locale])) {
        const values = valuesFor(leaf(TEXTS[locale], key));
        expect(t(key, values), key).toBe(expected(key, values));
        expect(t(key), `${key} without values`).toBe(expected(key));
      }
    });

    it(`picks the plural forms as i18next does (${locale})`, () => {
      const expected = i18nextT(locale);
      const t = createTranslate(locale, TEXTS[locale]);
      const plurals = new Set(
        keysOf(TEXTS[locale])
          .filter((key) => /_(zero|one|two|few|many|other)$/.test(key))
          .map((key) => key.replace(/_[a-z]+$/, '')),
      );
      expect(plurals.size).toBeGreaterThan(0);
      for (const key of plurals) {
        for (const count of [0, 1, 2, 5, 1000]) {
          const values = { ...valuesFor(leaf(TEXTS[locale], `${key}_other`)), count };
          expect(t(key, values), `${key} ${count}`).toBe(expected(key, values));
        }
      }
    });

    it(`writes {{count, number}} as Intl does, whole numbers under a thousand included (${locale})`, () => {
      const t = createTranslate(locale, { n: '{{count, number}}' });
      const intl = new Intl.NumberFormat(locale);
      const values = [-1000, -1, -0, 0, 0.5, 1, 7, 999, 999.5, 1000, 12345, 1_000_000, -0.25];
      for (let n = 0; n < 1100; n += 1) values.push(n);
      for (const value of values) expect(t('n', { count: value }), String(value)).toBe(intl.format(value));
    });

    it(`answers a missing key as i18next does (${locale})`, () => {
      const expected = i18nextT(locale);
      const t = createTranslate(locale, TEXTS[locale]);
      for (const [key, options] of [
        ['password.error.not_a_rule', undefined],
        ['password.error.not_a_rule', { defaultValue: '' }],
        ['apiErrors.unknown_code', { defaultValue: 'Kept {{name}}', name: 'as is' }],
        ['login.error', { other: 1 }],
      ] as const) {
        expect(t(key, options), key).toBe(expected(key, options));
      }
    });
  }

  it('switches language once the other texts are there', async () => {
    const translator = new Translator('en', [['en', en]]);
    let changes = 0;
    translator.subscribe(() => changes++);
    expect(translator.hasResourceBundle('fr')).toBe(false);
    translator.addResourceBundle('fr', 'translation', fr);
    await translator.changeLanguage('fr');
    expect(translator.language).toBe('fr');
    expect(translator.t('login.pageTitle')).toBe(fr.login.pageTitle);
    expect(changes).toBe(1);
  });

  it('writes a text in another language it holds when asked with lng, as i18next does', () => {
    const instance = i18next.createInstance();
    void instance.init({
      resources: { en: { translation: en }, fr: { translation: fr } },
      lng: 'en',
      fallbackLng: false,
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    const translator = new Translator('en', [
      ['en', en],
      ['fr', fr],
    ]);
    for (const [key, options] of [
      ['settings.saved', { lng: 'fr' }],
      ['settings.saved', { lng: 'en' }],
      ['pagination.page', { lng: 'fr', page: 2, pageCount: 5 }],
    ] as const) {
      expect(translator.t(key, options), `${key} ${options.lng}`).toBe(instance.t(key, options));
    }
    expect(translator.t('settings.saved', { lng: 'fr' })).toBe(fr.settings.saved);
    // A language it does not hold yet: the one on screen, rather than the key.
    expect(new Translator('en', [['en', en]]).t('settings.saved', { lng: 'fr' })).toBe(en.settings.saved);
  });
});
