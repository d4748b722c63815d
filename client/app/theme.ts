import {
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  type MantineColorsTuple,
  type MantineThemeComponent,
} from '@mantine/core';
import { AA_TEXT_RATIO, darkenUntil } from './contrast';

/**
 * The brand colours and what the WCAG 2.1 AA contrast rules ask of every palette (decision 022).
 * In the light scheme Mantine paints: filled = shade PRIMARY_SHADE with white text (buttons, badges,
 * the unread count), its hover = the next shade; light = shade 9 text on shade 1 (2 on hover);
 * subtle and outline = that text on white; anchors = shade PRIMARY_SHADE on white.
 */

/** Filled shade of every palette: buttons, badges, anchors, outlines. */
export const PRIMARY_SHADE = 8;

const WHITE = '#ffffff';

/** 4.5:1 with a margin, so that rounding in a browser or a checker never lands a shade just under. */
const TARGET_RATIO = AA_TEXT_RATIO + 0.1;

/** A deep indigo: shade 8 is 6.5:1 on white, shade 9 is 8:1 on white and 6.3:1 on shade 1. */
export const BRAND: MantineColorsTuple = [
  '#eef1ff',
  '#dde3ff',
  '#bcc7fd',
  '#95a5f9',
  '#7185f4',
  '#5a6ef0',
  '#4a5de6',
  '#4356dc',
  '#3d4fd1',
  '#3443b6',
];

/** Hint text (c="dimmed"): Mantine's gray 6 is 3.3:1 on white; this one is 5.8:1 on white, 5.2:1 on gray 1. */
export const DIMMED = '#5f666d';

/**
 * A palette whose filled shade carries white text and whose shade 9 reads on shades 1 and 2, by
 * darkening those two shades only where Mantine's defaults fall short (teal, green, cyan, orange,
 * lime and yellow fail; red's 4.51:1 has no margin): any colour of the theme is then safe in the filled, light, subtle and outline variants.
 */
function accessiblePalette(tuple: MantineColorsTuple): MantineColorsTuple {
  const filled = darkenUntil(tuple[PRIMARY_SHADE], [WHITE], TARGET_RATIO);
  const strong = darkenUntil(tuple[9], [WHITE, tuple[1], tuple[2]], TARGET_RATIO);
  const shades = [...tuple];
  shades[PRIMARY_SHADE] = filled;
  shades[9] = strong;
  return shades as unknown as MantineColorsTuple;
}

const colors: Record<string, MantineColorsTuple> = Object.fromEntries(
  Object.entries({ ...DEFAULT_THEME.colors, brand: BRAND }).map(([name, tuple]) => [name, accessiblePalette(tuple)]),
);

/**
 * Default props by component name, written as plain objects rather than with Menu.extend() and the
 * like, so that the theme does not pull those components into the first page's code.
 */
const defaultProps = (props: Record<string, unknown>): MantineThemeComponent => ({ defaultProps: props });

export const theme = createTheme({
  colors,
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
export const ERROR_COLOR = colors.red[PRIMARY_SHADE];

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
