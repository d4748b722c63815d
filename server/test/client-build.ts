import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A minimal built client for tests of the static serving: index.html (the application), public.html
 * (the sign-in pages) and one hashed asset.
 */
export const FAKE_ASSET = '/assets/main-abc123.js';

export function fakeClientBuild() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'public.html'), '<!doctype html><div id="root" data-public></div>');
  fs.writeFileSync(path.join(dir, FAKE_ASSET), 'console.log(1)');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
