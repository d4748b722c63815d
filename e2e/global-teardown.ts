import fs from 'node:fs';
import path from 'node:path';
import { ENV } from './helpers/environment';

/** Shows what the portals logged (at warn level: anything there is worth seeing), then removes the run's files. */
export default async function globalTeardown(): Promise<void> {
  const runDir = process.env[ENV.runDir];
  if (!runDir || !fs.existsSync(runDir)) return;
  for (const entry of fs.readdirSync(runDir).sort()) {
    const log = path.join(runDir, entry, 'portal.log');
    if (!fs.existsSync(log)) continue;
    const notable = fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('Portal ready at '));
    if (notable.length > 0) {
      console.log(`e2e: portal log of ${entry} (last ${Math.min(notable.length, 40)} of ${notable.length} lines):`);
      console.log(notable.slice(-40).join('\n'));
    }
  }
  // Keep the run's files (databases, mails, server logs) when asked, to look into a failure.
  if (!process.env.E2E_KEEP_FILES) fs.rmSync(runDir, { recursive: true, force: true });
  else console.log(`e2e: files kept in ${runDir}`);
}
