#!/usr/bin/env node
// npm start: builds the client and the server when their sources changed since the last build
// (`npm run build`), then runs the built server, plain JavaScript, in this process. A production
// deployment builds once and runs `node dist-server/server/main.js` itself (docs/operations.md).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sourcesHash, STAMP } from './build-server.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const main = path.join(root, 'dist-server', 'server', 'main.js');

const built = fs.existsSync(STAMP) ? fs.readFileSync(STAMP, 'utf8').trim() : null;
const current = fs.existsSync(main) && fs.existsSync(path.join(root, 'dist', 'index.html')) && built === sourcesHash();
if (!current) {
  console.log(built ? 'Sources changed since the last build: building' : 'Building the client and the server');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(pathToFileURL(main).href);
