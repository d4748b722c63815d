import type { Texts, TextsHolder } from './load';

/** Values for a text's `{{placeholders}}`; `count` also picks its plural form, `defaultValue` stands in for a missing key. */
export interface TranslateOptions {
  defaultValue?: string;
  count?: number;
  [name: string]: unknown;
}

/** `t(key, options)`, as i18next's: what the components shared with the sign-in pages need of it. */
export type Translate = (key: string, options?: TranslateOptions) => string;

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

function lookup(texts: unknown, path: string): unknown {
  let node = texts;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * A translation function over one language's texts, for the pages that do without i18next (the
 * sign-in pages, decision 054). It reads the same JSON the same way for what the texts use: keys as
 * dotted paths, `{{name}}` and `{{name, number}}` placeholders (left as they are when no value is
 * given), plural forms as `key_one`/`key_other` (and `key_zero` for 0) by the language's plural rules,
 * `defaultValue` for a missing key, else the key itself. translate.test.ts holds it to i18next's
 * output for every text in both languages.
 */
export function createTranslate(locale: string, texts: Texts): Translate {
  const plurals = new Intl.PluralRules(locale);
  const numbers = new Intl.NumberFormat(locale);
  const interpolate = (text: string, values: TranslateOptions) =>
    text.replace(PLACEHOLDER, (placeholder, inner: string) => {
      const [name = '', format] = inner
        .replace(/^-/, '')
        .split(',', 2)
        .map((part) => part.trim());
      if (!Object.hasOwn(values, name) && !name.includes('.')) return placeholder;
      const value = lookup(values, name);
      if (value === undefined && !Object.hasOwn(values, name)) return placeholder;
      if (format === 'number') return numbers.format(value as number);
      return value == null ? '' : String(value as string);
    });
  return (key, options = {}) => {
    const candidates = [key];
    if (typeof options.count === 'number') {
      candidates.unshift(`${key}_${plurals.select(options.count)}`);
      if (options.count === 0) candidates.unshift(`${key}_zero`);
    }
    for (const candidate of candidates) {
      const text = lookup(texts, candidate);
      if (typeof text === 'string') return interpolate(text, options);
    }
    return options.defaultValue === undefined ? key : interpolate(options.defaultValue, options);
  };
}

/**
 * The sign-in pages' texts holder: a language's texts at a time, another one added when the interface
 * switches to it (through ./load's switchLanguage, as the application's i18next does).
 */
export class Translator implements TextsHolder {
  language: string;
  t: Translate;
  private readonly bundles = new Map<string, Texts>();
  private readonly listeners = new Set<() => void>();

  constructor(language: string, bundles: Iterable<[string, Texts]> = []) {
    for (const [name, texts] of bundles) this.bundles.set(name, texts);
    this.language = language;
    this.t = createTranslate(language, this.bundles.get(language) ?? {});
  }

  hasResourceBundle(language: string): boolean {
    return this.bundles.has(language);
  }

  addResourceBundle(language: string, _namespace: string, texts: Texts): void {
    this.bundles.set(language, texts);
  }

  changeLanguage(language: string): Promise<void> {
    this.language = language;
    this.t = createTranslate(language, this.bundles.get(language) ?? {});
    for (const listener of this.listeners) listener();
    return Promise.resolve();
  }

  /** Called after each change of language; returns what stops it. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
