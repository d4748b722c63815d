import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { AA_TEXT_RATIO, contrastRatio, darkenUntil } from './contrast';
import { PALETTES } from './palettes';
import { cssVariablesResolver, DIMMED, ERROR_COLOR, PRIMARY_SHADE, theme } from './theme';

const WHITE = '#ffffff';
/** The light greys that hint text sits on: striped rows, cards, the body of a gray alert. */
const GRAY_BACKGROUNDS = [WHITE, DEFAULT_THEME.colors.gray[0], DEFAULT_THEME.colors.gray[1]];

describe('WCAG contrast ratio', () => {
  it('follows the WCAG formula', () => {
    expect(contrastRatio('#000000', WHITE)).toBeCloseTo(21, 5);
    expect(contrastRatio(WHITE, WHITE)).toBe(1);
    // Mantine's indigo 6, the former primary: the 4.32:1 axe reported.
    expect(contrastRatio('#4c6ef5', WHITE)).toBeCloseTo(4.32, 2);
    expect(contrastRatio('#767676', WHITE)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    expect(contrastRatio('#777777', WHITE)).toBeLessThan(AA_TEXT_RATIO);
  });

  it('darkens a colour only as far as needed', () => {
    expect(darkenUntil('#3d4fd1', [WHITE])).toBe('#3d4fd1');
    const teal = darkenUntil('#099268', [WHITE]);
    expect(contrastRatio(teal, WHITE)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    expect(contrastRatio(teal, WHITE)).toBeLessThan(5);
  });
});

/** The brand's palette as designed: every shade already reads where the portal uses it. */
const BRAND = [
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

describe('the palettes written out', () => {
  /** 4.5:1 with a margin, so that rounding in a browser or a checker never lands a shade just under. */
  const target = AA_TEXT_RATIO + 0.1;

  it('are Mantine’s and the brand’s, with the filled shade and shade 9 darkened only as far as needed', () => {
    const expected = Object.fromEntries(
      Object.entries({ ...DEFAULT_THEME.colors, brand: BRAND }).map(([name, tuple]) => {
        const shades = [...tuple];
        shades[PRIMARY_SHADE] = darkenUntil(tuple[PRIMARY_SHADE], [WHITE], target);
        shades[9] = darkenUntil(tuple[9], [WHITE, tuple[1], tuple[2]], target);
        return [name, shades];
      }),
    );
    expect(PALETTES).toEqual(expected);
    expect(theme.colors).toEqual(expected);
  });
});

describe('the theme passes WCAG 2.1 AA on white', () => {
  const palettes = theme.colors ?? {};

  it('uses the brand colour as primary, filled at the tested shade', () => {
    expect(theme.primaryColor).toBe('brand');
    expect(theme.primaryShade).toEqual({ light: PRIMARY_SHADE, dark: PRIMARY_SHADE });
    expect(palettes.brand).toEqual(BRAND);
  });

  it('the primary colour reads on white and white reads on it (links, subtle and filled buttons)', () => {
    const filled = BRAND[PRIMARY_SHADE];
    expect(contrastRatio(filled, WHITE)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    expect(contrastRatio(BRAND[9], WHITE)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    expect(contrastRatio(BRAND[9], BRAND[1])).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    for (const background of GRAY_BACKGROUNDS) {
      expect(contrastRatio(filled, background)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    }
  });

  it.each(Object.keys(DEFAULT_THEME.colors))('%s works in every variant (badges, alerts, buttons)', (name) => {
    const shades = palettes[name];
    expect(shades).toBeDefined();
    if (!shades) return;
    // filled: white text on the filled shade and on its hover shade
    expect(contrastRatio(shades[PRIMARY_SHADE], WHITE)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    expect(contrastRatio(shades[9], WHITE)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    // light: shade 9 on shade 1, and on shade 2 when hovered
    expect(contrastRatio(shades[9], shades[1])).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    expect(contrastRatio(shades[9], shades[2])).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
  });

  it('hint text (dimmed) reads on white and on the light greys', () => {
    expect(contrastRatio(DEFAULT_THEME.colors.gray[6], WHITE)).toBeLessThan(AA_TEXT_RATIO);
    for (const background of GRAY_BACKGROUNDS) {
      expect(contrastRatio(DIMMED, background)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    }
    const variables = cssVariablesResolver({ ...DEFAULT_THEME, ...theme } as never);
    expect(variables.light['--mantine-color-dimmed']).toBe(DIMMED);
  });

  it("a field's error text reads on white", () => {
    expect(contrastRatio(DEFAULT_THEME.colors.red[6], WHITE)).toBeLessThan(AA_TEXT_RATIO);
    expect(contrastRatio(ERROR_COLOR, WHITE)).toBeGreaterThanOrEqual(AA_TEXT_RATIO);
    const variables = cssVariablesResolver({ ...DEFAULT_THEME, ...theme } as never);
    expect(variables.light['--mantine-color-error']).toBe(ERROR_COLOR);
  });
});
