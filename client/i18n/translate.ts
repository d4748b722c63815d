import type { Texts, TextsHolder } from './load';

/**
 * Values for a text's `{{placeholders}}`; `count` also picks its plural form, `defaultValue` stands
 * in for a missing key, `lng` asks for another language the holder has (a Translator's `t` only).
 */
interface TranslateOptions {
  defaultValue?: string;
  count?: number;
  lng?: string;
  [name: string]: unknown;
}

/** `t(key, options)`, as i18next's, for what the portal's texts use of it. */
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
 * A translation function over one language's texts (the client does without i18next, decisions 054
 * and 074). It reads the same JSON the same way for what the texts use: keys as
 * dotted paths, `{{name}}` and `{{name, number}}` placeholders (left as they are when no value is
 * given), plural forms as `key_one`/`key_other` (and `key_zero` for 0) by the language's plural rules,
 * `defaultValue` for a missing key, else the key itself. translate.test.ts holds it to i18next's
 * output for every text in both languages.
 */
export function createTranslate(locale: string, texts: Texts): Translate {
  // Made on first use, not here: the first Intl.NumberFormat of a page costs tens of milliseconds
  // (its locale data), which every page's start would otherwise spend before it paints.
  let plurals: Intl.PluralRules | undefined;
  let numbers: Intl.NumberFormat | undefined;
  const formatNumber = (value: number): string =>
    // A whole number under a thousand reads the same in every language the portal speaks, as
    // Intl writes it (no separator, no decimals): most counts on a page, without Intl's start.
    Number.isInteger(value) && value >= 0 && value < 1000 && !Object.is(value, -0)
      ? String(value)
      : (numbers ??= new Intl.NumberFormat(locale)).format(value);
  const interpolate = (text: string, values: TranslateOptions) =>
    text.replace(PLACEHOLDER, (placeholder, inner: string) => {
      const [name = '', format] = inner
        .replace(/^-/, '')
        .split(',', 2)
        .map((part) => part.trim());
      if (!Object.hasOwn(values, name) && !name.includes('.')) return placeholder;
      const value = lookup(values, name);
      if (value === undefined && !Object.hasOwn(values, name)) return placeholder;
      if (format === 'number') return formatNumber(value as number);
      return value == null ? '' : String(value as string);
    });
  return (key, options = {}) => {
    const candidates = [key];
    if (typeof options.count === 'number') {
      candidates.unshift(`${key}_${(plurals ??= new Intl.PluralRules(locale)).select(options.count)}`);
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
 * The interface's texts holder, in the application and the sign-in pages: a language's texts at a
 * time, another one added when the interface switches to it (through ./load's switchLanguage), and
 * `t(key, { lng })` for a text in another language already here (a message in a newly saved one).
 */
export class Translator implements TextsHolder {
  language: string;
  t: Translate;
  private readonly bundles = new Map<string, Texts>();
  private readonly listeners = new Set<() => void>();

  constructor(language: string, bundles: Iterable<[string, Texts]> = []) {
    for (const [name, texts] of bundles) this.bundles.set(name, texts);
    this.language = language;
    this.t = this.translateIn(language);
  }

  private translateIn(language: string): Translate {
    const own = createTranslate(language, this.bundles.get(language) ?? {});
    return (key, options) => {
      const other = options?.lng;
      if (other === undefined || other === language || !this.bundles.has(other)) return own(key, options);
      return createTranslate(other, this.bundles.get(other) ?? {})(key, options);
    };
  }

  hasResourceBundle(language: string, _namespace?: string): boolean {
    return this.bundles.has(language);
  }

  addResourceBundle(language: string, _namespace: string, texts: Texts): void {
    this.bundles.set(language, texts);
  }

  changeLanguage(language: string): Promise<void> {
    this.language = language;
    this.t = this.translateIn(language);
    for (const listener of this.listeners) listener();
    return Promise.resolve();
  }

  /** Called after each change of language; returns what stops it. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}
