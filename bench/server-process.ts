import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * Starts one server of bench/api-server.ts (`args`: its mode and files) in a process of its own, so the
 * load generator does not share its event loop; resolves once it prints its port. With `profileDir`,
 * the process writes a CPU profile there when it stops (node --cpu-prof).
 */
export function startServer(args: string[], profileDir?: string): Promise<{ child: ChildProcess; port: number }> {
  const profiling = profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profileDir)] : [];
  const child = spawn(process.execPath, [...profiling, '--import', 'tsx', 'bench/api-server.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = output.match(/PORT (\d+)/)?.[1];
      if (port) resolve({ child, port: Number(port) });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited (${code}) before listening: ${output}`)));
  });
}
