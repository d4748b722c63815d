import { useMediaQuery } from '@mantine/hooks';
import './layout.css';

/** Height of the top bar, in pixels: the app shell's header and what sits just below it. */
export const HEADER_HEIGHT = 60;

/** Below Mantine's `sm` breakpoint (48em, 768 px): a phone. Modals fill the screen (layout.css). */
export const SMALL_SCREEN_QUERY = '(max-width: 47.99em)';

/**
 * Below Mantine's `md` breakpoint (62em, 992 px) the top bar folds its links into the burger menu: a
 * client's bar (home, the account executive contact, the bell, a long e-mail) needs about 850 px.
 */
export const COMPACT_TOP_BAR_QUERY = '(max-width: 61.99em)';

/** Read at the first render (not in an effect), so a phone never paints the desktop layout first. */
export function useSmallScreen(): boolean {
  return useMediaQuery(SMALL_SCREEN_QUERY, false, { getInitialValueInEffect: false });
}

export function useCompactTopBar(): boolean {
  return useMediaQuery(COMPACT_TOP_BAR_QUERY, false, { getInitialValueInEffect: false });
}

/**
 * Toasts at the bottom right: they cover neither the bar (user menu, notification centre), nor the
 * page's title just below it (a toast at the top hid the heading of the page a form led to), nor a
 * modal's header.
 */
export const NOTIFICATIONS_PLACEMENT = { position: 'bottom-right', containerWidth: 420 } as const;

/**
 * On a phone, toasts at the bottom, across the screen: the top holds the bar, the notification
 * centre's list and the header of a modal, which fills the screen there.
 */
export const SMALL_SCREEN_NOTIFICATIONS_PLACEMENT = { position: 'bottom-center', containerWidth: 420 } as const;
