/**
 * The style sheets sit after the HTML page's own loader (vite.config.ts), so that they do not hold
 * back its first paint: the app waits for them before it renders, not the loader.
 */
export function stylesLoaded(): Promise<unknown> {
  const pending = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter((l) => !l.sheet);
  return Promise.all(
    pending.map(
      (link) =>
        new Promise((resolve) => {
          link.addEventListener('load', resolve, { once: true });
          link.addEventListener('error', resolve, { once: true });
        }),
    ),
  );
}
