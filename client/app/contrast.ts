/** WCAG 2.1 colour contrast, for colours written #rrggbb. */

/** The smallest ratio WCAG 2.1 AA accepts for normal text (1.4.3). */
export const AA_TEXT_RATIO = 4.5;

function channels(hex: string): [number, number, number] {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const value = Number.parseInt(match[1], 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

/** Relative luminance (WCAG 2.1 definition). */
function relativeLuminance(hex: string): number {
  const [r, g, b] = channels(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Contrast ratio between two colours, from 1 to 21, whichever is lighter. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (lighter + 0.05) / (darker + 0.05);
}

/** The colour with each channel scaled towards black by `amount` (0 to 1). */
function darkenHex(hex: string, amount: number): string {
  return `#${channels(hex)
    .map((c) =>
      Math.round(c * (1 - amount))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** `hex` darkened in small steps until it reaches `ratio` against every colour of `against`. */
export function darkenUntil(hex: string, against: readonly string[], ratio = AA_TEXT_RATIO): string {
  let colour = hex;
  // At step 50 the colour is black, the darkest there is.
  for (let step = 1; step <= 50 && against.some((other) => contrastRatio(colour, other) < ratio); step += 1) {
    colour = darkenHex(hex, step * 0.02);
  }
  return colour;
}
