/** A language's texts for the sign-in pages only (vite.config.ts, signInTexts.ts). */
declare module '*.json?sign-in' {
  const texts: Record<string, unknown>;
  export default texts;
}
