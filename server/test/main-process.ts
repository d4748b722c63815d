import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';

/** server/main.ts run as an operator runs it, in a process of its own (tests of start and stop). */
const root = path.resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Builds the server as `npm run build` does into a folder of its own, beside which node_modules is
 * linked as it is in the project (the API tests' global set-up does it once per run).
 */
export async function buildServerForTests(): Promise<{ dir: string; remove: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-built-'));
  await buildServer(dir);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** A script of the server built for this run: `main` (the portal) or `cli` (the operator's command line). */
export function builtScript(name: 'main' | 'cli'): string {
  return path.join(inject('builtServer'), 'server', `${name}.js`);
}

/**
 * Starts the server built for this run (`node dist-server/server/main.js`, as production runs it), or
 * `script`, another built one, by plain Node.
 */
export function start(env: Record<string, string>, script = builtScript('main')): Started {
  const args = [script];
  const child = spawn(process.execPath, args, {
    cwd: root,
    // a clean environment: the test runner's own variables (vitest sets BASE_URL=/) are not the operator's
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return { child, output: () => output, exited };
}

export async function waitForHealth(port: number, started: Started): Promise<void> {
  // generous: a loaded machine starts a process slowly
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`server exited early:\n${started.output()}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no health within 60 s:\n${started.output()}`);
}
