/**
 * What the runner's globalSetup and each worker's portal fixture hand to the journeys' helpers.
 * globalSetup sets the run's folder before the workers are forked (they inherit it); the worker
 * fixture (e2e/fixtures.ts) sets its own portal's address and mail folder in its own process.
 */
export const ENV = {
  /** the run's folder: the seeded database and files, the client build, one folder per worker */
  runDir: 'E2E_RUN_DIR',
  /** this worker's portal */
  baseUrl: 'E2E_BASE_URL',
  /** this worker's SMTP peer's mail folder */
  mailDir: 'E2E_MAIL_DIR',
} as const;

export function requireEnv(name: (typeof ENV)[keyof typeof ENV]): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the journeys with \`npx playwright test\` (globalSetup sets it)`);
  return value;
}

/** A stored message as the SMTP peer wrote it: one JSON file per message in the mail folder. */
export interface StoredMessage {
  receivedAt: string;
  envelope: { from: string | null; to: string[] };
  raw: string;
}
