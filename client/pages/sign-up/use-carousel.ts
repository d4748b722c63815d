import { type FocusEvent, useCallback, useEffect, useState, useSyncExternalStore } from 'react';

/** Spec 9: the sign-up carousel moves on every 3000 ms. */
export const CAROUSEL_INTERVAL_MS = 3000;

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeToMotion(onChange: () => void) {
  if (typeof window === 'undefined' || !window.matchMedia) return () => {};
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the visitor asked for less motion. False in the markup rendered at build time and while
 * the script takes it over (the server snapshot), the browser's answer from then on.
 */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeToMotion,
    () => Boolean(window.matchMedia?.(REDUCED_MOTION).matches),
    () => false,
  );
}

interface Carousel {
  /** the slide shown, from 0 */
  index: number;
  count: number;
  next: () => void;
  previous: () => void;
  goTo: (index: number) => void;
  /** whether the slides move on by themselves when nothing holds them (the pause/play control) */
  playing: boolean;
  togglePlaying: () => void;
  /** whether they are moving now: playing, and neither hovered nor focused */
  rotating: boolean;
  /** on the carousel's region: hovering it or focusing inside it holds the slides */
  holdHandlers: {
    onMouseEnter: () => void;
    onMouseLeave: () => void;
    onFocus: () => void;
    onBlur: (event: FocusEvent<HTMLElement>) => void;
  };
}

/**
 * The slides of a carousel (WAI-ARIA Authoring Practices, "Carousel"): they move on every
 * `intervalMs` and wrap around, hold while the pointer is over them or the focus is inside, and do
 * not move by themselves for a visitor who prefers reduced motion until that visitor presses play.
 * Moving to a slide by hand starts its full interval again.
 */
export function useCarousel(count: number, intervalMs = CAROUSEL_INTERVAL_MS): Carousel {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  // null until the visitor presses pause or play: their preference about motion decides meanwhile
  const [chosen, setChosen] = useState<boolean | null>(null);
  const reducedMotion = usePrefersReducedMotion();
  const playing = chosen ?? !reducedMotion;
  const rotating = playing && !hovered && !focused;

  const goTo = useCallback((target: number) => setIndex(((target % count) + count) % count), [count]);
  const next = useCallback(() => setIndex((current) => (current + 1) % count), [count]);
  const previous = useCallback(() => setIndex((current) => (current - 1 + count) % count), [count]);

  useEffect(() => {
    if (!rotating) return;
    const timer = setTimeout(next, intervalMs);
    return () => clearTimeout(timer);
  }, [rotating, index, next, intervalMs]);

  return {
    index,
    count,
    next,
    previous,
    goTo,
    playing,
    togglePlaying: () => setChosen(!playing),
    rotating,
    holdHandlers: {
      onMouseEnter: () => setHovered(true),
      onMouseLeave: () => setHovered(false),
      onFocus: () => setFocused(true),
      onBlur: (event) => {
        // still inside the carousel: the focus only moved between its controls
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      },
    },
  };
}
