import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENV } from './helpers/environment';
import { freePort, prepareClient, startPortal } from './helpers/portal-server';
import { type RunState, setRunState } from './helpers/run-state';
import { startSmtpPeer } from './helpers/smtp-peer';

/**
 * Starts a real SMTP peer and the portal on a fresh SQLite database (seeded with the demo accounts),
 * both on free loopback ports, and hands their addresses to the test workers.
 */
export default async function globalSetup(): Promise<void> {
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  const mailDir = path.join(runDir, 'mail');
  const state: RunState = { runDir, smtp: null, portal: null };
  setRunState(state);

  // If anything below fails, globalTeardown still runs and closes what was started.
  state.smtp = await startSmtpPeer(mailDir);
  const port = await freePort();
  state.portal = await startPortal({
    port,
    logFile: path.join(runDir, 'portal.log'),
    env: {
      NODE_ENV: 'test',
      DATABASE_URL: `sqlite:${path.join(runDir, 'e2e.db')}`,
      DATA_DIR: path.join(runDir, 'data'),
      STATIC_DIR: prepareClient(path.join(runDir, 'dist')),
      SMTP_URL: `smtp://127.0.0.1:${state.smtp.port}`,
      MAIL_FROM: 'Portal e2e <no-reply@e2e.portal>',
      DEV_MAILBOX: 'false',
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      // Every journey comes from 127.0.0.1; the per-IP limits on sign-in, password reset and invitations
      // (30, 10 and 30 a minute by default) are not what these journeys test and would tie the run to its speed.
      RATE_LIMIT_LOGIN_PER_MINUTE: '600',
      RATE_LIMIT_PASSWORD_RESET_PER_MINUTE: '600',
      RATE_LIMIT_INVITATION_PER_MINUTE: '600',
      // The journeys test the captcha's flow, not its cost: a light proof of work keeps them quick on
      // a loaded machine.
      CAPTCHA_COST: '50',
    },
  });

  process.env[ENV.baseUrl] = state.portal.baseUrl;
  process.env[ENV.mailDir] = mailDir;
  process.env[ENV.serverPid] = String(state.portal.process.pid);
  console.log(`e2e: portal at ${state.portal.baseUrl}, SMTP peer on port ${state.smtp.port}, files in ${runDir}`);
}
