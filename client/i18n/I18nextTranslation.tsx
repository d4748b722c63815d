import type { i18n as I18n } from 'i18next';
import { type ReactNode, useMemo } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { TranslationProvider } from './use-translation';

function FromI18next({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const value = useMemo(() => ({ t, i18n: { language } }), [t, language]);
  return <TranslationProvider value={value}>{children}</TranslationProvider>;
}

/**
 * The application's texts: i18next for its own components (react-i18next's `useTranslation`), and
 * the same `t` for the modules it shares with the sign-in pages (./use-translation, decision 054).
 */
export function I18nextTranslation({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <FromI18next>{children}</FromI18next>
    </I18nextProvider>
  );
}
