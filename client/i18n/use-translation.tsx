import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import type { TextsHolder } from './load';
import type { Translate, Translator } from './translate';

/** What a component gets to write in the interface's language: `t`, and the holder of the texts (its `language`). */
interface Translation {
  t: Translate;
  i18n: TextsHolder;
}

const TranslationContext = createContext<Translation | null>(null);

/**
 * `useTranslation()` of the whole client, the application and the sign-in pages: `{ t, i18n }` as
 * react-i18next's hook gave them, from a Translator (./translate), without i18next (decisions 054, 074).
 */
export function useTranslation(): Translation {
  const translation = useContext(TranslationContext);
  if (!translation) throw new Error('useTranslation needs a TranslatorProvider above it');
  return translation;
}

/** The interface's texts: the components below follow the translator's language. */
export function TranslatorProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  const t = useSyncExternalStore(
    translator.subscribe,
    () => translator.t,
    () => translator.t,
  );
  // The translator itself, as react-i18next gave its i18next instance: `i18n.language` is the current one.
  const value = useMemo(() => ({ t, i18n: translator }), [translator, t]);
  return <TranslationContext value={value}>{children}</TranslationContext>;
}
