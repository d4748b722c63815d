import { E2E_OIDC_CLIENTS } from './relying-party';
import path from 'node:path';

/**
 * The run's folder, made by globalSetup: `seed/` (the seeded database and its files, copied by each
 * worker), `dist/` (the client every portal serves) and one `worker-N/` per worker process (its
 * database, files, mails and portal log).
 */
export const runPaths = (runDir: string) => ({
  seedDir: path.join(runDir, 'seed'),
  seedDatabase: path.join(runDir, 'seed', 'e2e.db'),
  seedData: path.join(runDir, 'seed', 'data'),
  staticDir: path.join(runDir, 'dist'),
  workerDir: (workerIndex: number) => path.join(runDir, `worker-${workerIndex}`),
});

/** What every journey portal is started with, besides its own database, files and SMTP peer. */
export const PORTAL_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  MAIL_FROM: 'Portal e2e <no-reply@e2e.portal>',
  DEV_MAILBOX: 'false',
  LOG_LEVEL: 'warn',
  // Every journey comes from 127.0.0.1; the per-IP limits on sign-in, password reset, invitations
  // and sign-up (30, 10, 30 and 10 a minute by default) are not what these journeys test and would
  // tie the run to its speed.
  RATE_LIMIT_LOGIN_PER_MINUTE: '600',
  RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '600',
  RATE_LIMIT_INVITATION_PER_MINUTE: '600',
  RATE_LIMIT_SIGNUP_PER_MINUTE: '600',
  // The journeys test the captcha's flow, not its cost: a light proof of work keeps them quick on
  // a loaded machine.
  CAPTCHA_COST: '50',
  // The simulated provisioner plays each step of a new instance after this many seconds (5 by
  // default, so a demo shows them); the journeys wait for the end, not for the pace.
  INSTANCE_PROVISIONING_DELAY_SECONDS: '1',
  // A CRM that does not answer (nothing listens on the discard port of this machine): the customer
  // page offers the sync, which fails with the CRM's error, as when Salesforce is down
  SALESFORCE_LOGIN_URL: 'http://127.0.0.1:9',
  SALESFORCE_CLIENT_ID: 'e2e-client',
  SALESFORCE_CLIENT_SECRET: 'e2e-secret',
  // the relying parties of e2e/oidc.spec.ts (e2e/helpers/relying-party.ts)
  OIDC_CLIENTS: E2E_OIDC_CLIENTS,
};
