import { lazyCode } from './lazy-code';

/**
 * The user menu's and the notification centre's code (TopBar.tsx): they open over the page (Menu,
 * Popover and floating-ui under them), so their code comes once the page has painted. A module of its
 * own so that tests fetch it before they render (client/test/setup.ts) without loading the bar.
 */
export const topBarMenus = lazyCode(() => import('./TopBarMenus'));
