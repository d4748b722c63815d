import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import type { Translate, Translator } from './translate';

/** What a component gets to write in the interface's language: `t`, and the language's code. */
export interface Translation {
  t: Translate;
  i18n: { language: string };
}

const TranslationContext = createContext<Translation | null>(null);

/**
 * `useTranslation()` for the modules the sign-in pages share with the application (decision 054):
 * the same `{ t, i18n.language }` as react-i18next's, from whichever holds the texts, the
 * application's i18next (I18nextTranslation.tsx) or the sign-in pages' Translator, so that those
 * pages do without i18next. The application's own modules keep react-i18next's hook.
 */
export function useTranslation(): Translation {
  const translation = useContext(TranslationContext);
  if (!translation) throw new Error('useTranslation needs a TranslationProvider or an I18nextTranslation above it');
  return translation;
}

/** Gives the components below a Translation (the application's, from its i18next). */
export const TranslationProvider = TranslationContext.Provider;

/** The sign-in pages' texts: the components below follow the translator's language. */
export function TranslatorProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  const language = useSyncExternalStore(
    translator.subscribe,
    () => translator.language,
    () => translator.language,
  );
  const t = useSyncExternalStore(
    translator.subscribe,
    () => translator.t,
    () => translator.t,
  );
  const value = useMemo(() => ({ t, i18n: { language } }), [t, language]);
  return <TranslationContext value={value}>{children}</TranslationContext>;
}
