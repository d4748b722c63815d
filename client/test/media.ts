/**
 * A `window.matchMedia` for jsdom, which has none: `matches(query)` says which media queries hold
 * (none by default, a wide screen; a test of the phone layout says which).
 */
export function fakeMatchMedia(matches: (query: string) => boolean = () => false): typeof window.matchMedia {
  return (query: string) =>
    ({
      matches: matches(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
