import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

interface Options {
  /** the process writes a CPU profile there when it stops (node --cpu-prof) */
  profileDir?: string;
  /**
   * where its standard output goes (its log lines): a file, as a log collector would take them, so
   * that the benchmark's own process does not spend its time reading them
   */
  outputFile?: string;
}

/**
 * Starts one server of bench/api-server.ts (`args`: its mode and files) in a process of its own, so the
 * load generator does not share its event loop; resolves once it prints its port.
 */
export function startServer(args: string[], options: Options = {}): Promise<{ child: ChildProcess; port: number }> {
  const profiling = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(options.profileDir)] : [];
  const output = options.outputFile ? fs.openSync(options.outputFile, 'w') : 'pipe';
  const child = spawn(process.execPath, [...profiling, '--import', 'tsx', 'bench/api-server.ts', ...args], {
    cwd: root,
    stdio: ['ignore', output, 'inherit'],
  });
  if (typeof output === 'number') fs.closeSync(output);
  return new Promise((resolve, reject) => {
    let text = '';
    const found = (port: string | undefined) => {
      if (!port) return false;
      resolve({ child, port: Number(port) });
      return true;
    };
    const exited = (code: number | null) => reject(new Error(`${args[0]} exited (${code}) before listening: ${text}`));
    child.once('exit', exited);
    if (child.stdout) {
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (found(text.match(/PORT (\d+)/)?.[1])) child.stdout!.removeAllListeners('data').resume();
      });
      return;
    }
    const poll = setInterval(() => {
      text = fs.readFileSync(options.outputFile!, 'utf8');
      if (found(text.match(/^PORT (\d+)$/m)?.[1])) {
        clearInterval(poll);
        child.off('exit', exited);
      }
    }, 50);
    child.once('exit', () => clearInterval(poll));
  });
}
