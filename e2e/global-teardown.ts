import fs from 'node:fs';
import { ENV } from './helpers/environment';
import { stopPortal } from './helpers/portal-server';
import { getRunState } from './helpers/run-state';

export default async function globalTeardown(): Promise<void> {
  const state = getRunState();
  if (state?.portal) await stopPortal(state.portal.process);
  else if (process.env[ENV.serverPid]) {
    try {
      process.kill(Number(process.env[ENV.serverPid]), 'SIGTERM');
    } catch {
      // already gone
    }
  }
  if (state?.smtp) await state.smtp.close();
  // The portal logs at warn level: anything there is worth seeing next to the test results.
  const log = state?.portal?.logFile;
  const lines = log && fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n') : [];
  const notable = lines.filter((line) => line.trim() && !line.startsWith('Portal ready at '));
  if (notable.length > 0) {
    console.log(`e2e: portal log (last ${Math.min(notable.length, 40)} of ${notable.length} lines):`);
    console.log(notable.slice(-40).join('\n'));
  }
  // Keep the run's files (database, mails, server log) when asked, to look into a failure.
  if (state?.runDir && !process.env.E2E_KEEP_FILES) fs.rmSync(state.runDir, { recursive: true, force: true });
  else if (state?.runDir) console.log(`e2e: files kept in ${state.runDir}`);
}
