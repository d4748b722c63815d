import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A minimal built client (index.html and one hashed asset) for tests of the static serving. */
export const FAKE_ASSET = '/assets/main-abc123.js';

export function fakeClientBuild() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-client-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dir, FAKE_ASSET), 'console.log(1)');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
