import { prerender } from 'react-dom/static';
import type { Locale } from '../../common/roles';
import { loadedTranslations, registerTranslations } from '../i18n/load';
import { Translator } from '../i18n/translate';
import en from '../i18n/en.json';
import fr from '../i18n/fr.json';
import { PublicApp } from './PublicApp';
import { pickSections, SIGN_IN_TEXT_SECTIONS } from './sign-in-texts';

/*
 * Run by the build (vite.config.ts), not in the browser: the sign-in pages' markup as their first
 * render draws it (no session known yet, the settings not arrived), so that public.html paints the
 * page before any script arrives, then hydrates it (decision 024).
 */
registerTranslations('en', pickSections(en, SIGN_IN_TEXT_SECTIONS));
registerTranslations('fr', pickSections(fr, SIGN_IN_TEXT_SECTIONS));

const pending = new Promise<never>(() => {});

/** The markup of `/{locale}{path}` (a sign-in page without parameters: /login, /password-lost). */
export async function renderSignInPage(locale: Locale, path: string): Promise<string> {
  const { prelude } = await prerender(
    <PublicApp
      translator={new Translator(locale, loadedTranslations())}
      session={{ profile: pending, config: pending }}
      location={{ pathname: `/${locale}${path}`, search: '', hash: '', state: null }}
    />,
  );
  return new Response(prelude as ReadableStream).text();
}
