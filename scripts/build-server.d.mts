// Types of build-server.mjs for the tests and benchmarks that build the server.
export function buildServer(outdir?: string): Promise<void>;
export function sourcesHash(): string;
export const STAMP: string;
