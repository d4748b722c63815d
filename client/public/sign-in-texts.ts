/**
 * The sections of en.json and fr.json the sign-in pages use (decision 024; the sign-up page's too, decision 067): their own, the shared
 * ones (the portal's name and loader, errors, the language switch, the rules the common/ schemas
 * name, the server's error codes, the captcha). public.html fetches only these, made at build time
 * from the same files by vite.config.ts (`<language>.json?sign-in`); the rest stays with the
 * application (`<language>.json?app`, loaded beside these). A sign-in page that uses another section must add it here
 * (signInTexts.test.tsx renders each page with these sections only).
 */
export const SIGN_IN_TEXT_SECTIONS = [
  'app',
  'language',
  'errors',
  'email',
  'password',
  'apiErrors',
  'captcha',
  'login',
  'passwordLost',
  'resetPassword',
  'signUp',
  'consent',
];

/** The named top-level sections of a language's texts. */
export function pickSections(texts: Record<string, unknown>, sections: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(sections.filter((name) => name in texts).map((name) => [name, texts[name]]));
}

/** The top-level sections of a language's texts but the named ones. */
export function omitSections(texts: Record<string, unknown>, sections: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(texts).filter(([name]) => !sections.includes(name)));
}
