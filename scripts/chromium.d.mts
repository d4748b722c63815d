// Types of chromium.mjs for the journeys' configuration.
export const CHROMIUM_CANDIDATES: readonly string[];
export function findChromium(env?: NodeJS.ProcessEnv): string | null;
