import { type CSSVariablesResolver, createTheme, type MantineThemeComponent } from '@mantine/core';
import { PALETTES } from './palettes';

/**
 * The brand colours and what the WCAG 2.1 AA contrast rules ask of every palette (decision 022),
 * written out in ./palettes. In the light scheme Mantine paints: filled = shade PRIMARY_SHADE with
 * white text (buttons, badges, the unread count), its hover = the next shade; light = shade 9 text on
 * shade 1 (2 on hover); subtle and outline = that text on white; anchors = shade PRIMARY_SHADE on white.
 */

/** Filled shade of every palette: buttons, badges, anchors, outlines. */
export const PRIMARY_SHADE = 8;

/** Hint text (c="dimmed"): Mantine's gray 6 is 3.3:1 on white; this one is 5.8:1 on white, 5.2:1 on gray 1. */
export const DIMMED = '#5f666d';

/**
 * Default props by component name, written as plain objects rather than with Menu.extend() and the
 * like, so that the theme does not pull those components into the first page's code.
 */
const defaultProps = (props: Record<string, unknown>): MantineThemeComponent => ({ defaultProps: props });

export const theme = createTheme({
  colors: PALETTES,
  primaryColor: 'brand',
  primaryShade: { light: PRIMARY_SHADE, dark: PRIMARY_SHADE },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  // A user whose system asks for less motion gets dialogs, menus, tooltips and toasts that appear
  // and go without animation (WCAG 2.3.3).
  respectReducedMotion: true,
  components: {
    // The focus placeholder Mantine puts first in a menu is a role="presentation" child of role="menu",
    // which ARIA forbids (axe aria-required-children): the first item takes the focus instead.
    Menu: defaultProps({ withInitialFocusPlaceholder: false }),
    // A <header> in a dialog is one more banner landmark beside the page's own.
    ModalHeader: defaultProps({ component: 'div' }),
    DrawerHeader: defaultProps({ component: 'div' }),
  },
});

/**
 * A field's error text and an invalid field's border: Mantine paints them red 6 (3.3:1 on white);
 * the filled red of the theme reads.
 */
export const ERROR_COLOR = PALETTES.red[PRIMARY_SHADE];

/** Replaces Mantine's dimmed grey and error red in the light scheme (the only one the portal uses). */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': DIMMED, '--mantine-color-error': ERROR_COLOR },
  dark: {},
});

/**
 * Where the theme's CSS variables are declared. Mantine writes them in a <style> inside the app, and
 * its style sheet declares the stock values with the same selectors; since the style sheet is linked
 * after the app's root (it must not hold back the first paint, vite.config.ts), it would win and put
 * the stock blue (3.55:1) and dimmed grey back. `html:root` outranks `:root` whatever the order.
 */
export const CSS_VARIABLES_SELECTOR = 'html:root';
