// Types of chromium.mjs for the journeys' configuration.
export function findChromium(env?: NodeJS.ProcessEnv): string | null;
