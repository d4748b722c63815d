// Which Chromium the browser journeys run in (docs/decisions/082).
import fs from 'node:fs';

/**
 * Debian's Chromium, newest choice first: the headless shell (package chromium-headless-shell, the
 * same Chromium build without the browser's own windows, what Playwright runs headless journeys in
 * by default), then the full browser (package chromium), which opens a browser window with its
 * toolbar and omnibox for every context and costs the journeys about 40% more processor time.
 */
const CHROMIUM_CANDIDATES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
];

/** `CHROMIUM_PATH` when set, else the first candidate installed; null when there is none. */
export function findChromium(env = process.env) {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? null;
}
