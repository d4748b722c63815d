/** A language's texts for the sign-in pages only (vite.config.ts, sign-in-texts.ts). */
declare module '*.json?sign-in' {
  const texts: Record<string, unknown>;
  export default texts;
}

/** A language's texts but the sign-in pages' sections (vite.config.ts, client/i18n/load.ts). */
declare module '*.json?app' {
  const texts: Record<string, unknown>;
  export default texts;
}
