/**
 * What globalSetup hands to the test workers. Workers are separate processes forked after
 * globalSetup, so the values travel as environment variables.
 */
export const ENV = {
  baseUrl: 'E2E_BASE_URL',
  mailDir: 'E2E_MAIL_DIR',
  serverPid: 'E2E_SERVER_PID',
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
