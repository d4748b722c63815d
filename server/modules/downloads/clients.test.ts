import { execFile, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDownloadPath } from '../../../common/api/catalogue';
import { findLicence } from '../licences/repo';
import { createCustomer, createLicence, createProduct, createVersionWithFiles } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * The secret URL as scripts use it: the real curl, wget and npm binaries against a listening portal.
 * A file downloaded whole, under its Content-Disposition name, resumed after an interruption, and an
 * npm tarball installed and required.
 */
const run = promisify(execFile);
let t: TestApp;
let base: string;
let work: string;
let secret: string;
const big = crypto.randomBytes(6 * 1024 * 1024 + 123);
const sha = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
const has = (binary: string) => spawnSync(binary, ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * A TCP link to the portal that carries the answer's first `bytes` bytes, then breaks both ends: an
 * interrupted download, the same on a busy machine as on an idle one.
 */
async function breakingLink(portalPort: string, bytes: number): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(portalPort), '127.0.0.1');
    sockets.add(client).add(upstream);
    let carried = 0;
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      const room = bytes - carried;
      if (room > 0) client.write(chunk.subarray(0, room));
      carried += chunk.length;
      if (carried >= bytes) {
        upstream.destroy();
        client.destroy();
      }
    });
    for (const socket of [client, upstream]) socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A tiny npm package, packed by the real `npm pack`. */
function packTinyPackage(): Buffer {
  const source = path.join(work, 'tiny-src');
  fs.mkdirSync(source, { recursive: true });
  fs.writeFileSync(
    path.join(source, 'package.json'),
    JSON.stringify({ name: 'portal-tiny-package', version: '1.2.3', main: 'index.js' }),
  );
  fs.writeFileSync(path.join(source, 'index.js'), "module.exports = 'hello from the portal';\n");
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', work], {
    cwd: source,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: path.join(work, 'npm-cache') },
  });
  if (packed.status !== 0) throw new Error(`npm pack failed: ${packed.stderr}`);
  return fs.readFileSync(path.join(work, packed.stdout.trim().split('\n').at(-1)!));
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-clients-'));
  t = await createTestApp();
  const { ctx } = t.app;
  await createProduct(ctx.db, { key: 'cli-tool' });
  const customer = await createCustomer(ctx.db);
  const licence = await createLicence(ctx.db, customer.id, 'cli-tool');
  secret = (await findLicence(ctx.db, licence.id))!.downloadSecret;
  await createVersionWithFiles(ctx, 'cli-tool', {
    semVer: '4.2.0',
    files: {
      linux: { bytes: big, fileName: 'cli-tool-4.2.0-linux.tar.gz' },
      npm: { bytes: packTinyPackage(), fileName: 'portal-tiny-package-1.2.3.tgz' },
    },
  });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${address.port}`;
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const url = (platform: string, semVer = 'latest') =>
  `${base}${secretDownloadPath(platform, 'cli-tool', semVer, secret)}`;

function folder(name: string): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

describe.skipIf(!has('curl'))('curl', () => {
  it('curl -fLOJ saves the file under its Content-Disposition name', async () => {
    const dir = folder('curl-oj');
    await run('curl', ['-fsSLOJ', url('linux')], { cwd: dir });
    const saved = path.join(dir, 'cli-tool-4.2.0-linux.tar.gz');
    expect(sha(fs.readFileSync(saved))).toBe(sha(big));
  });

  it('curl -fLO saves it under the last part of the URL, curl -fL -o under the name given', async () => {
    const dir = folder('curl-o');
    await run('curl', ['-fsSLO', url('linux', '4.2.0').replace('/?', '?')], { cwd: dir });
    // -O names the file after the path's last segment: the version (the trailing slash form leaves none)
    expect(sha(fs.readFileSync(path.join(dir, '4.2.0')))).toBe(sha(big));
    await run('curl', ['-fsSL', '-o', 'named.bin', url('linux')], { cwd: dir });
    expect(sha(fs.readFileSync(path.join(dir, 'named.bin')))).toBe(sha(big));
  });

  it('curl -f fails on a wrong secret and writes nothing', async () => {
    const dir = folder('curl-wrong');
    const wrong = `${base}${secretDownloadPath('linux', 'cli-tool', 'latest', 'not-the-secret')}`;
    await expect(run('curl', ['-fsSL', '-o', 'file.bin', wrong], { cwd: dir })).rejects.toMatchObject({ code: 22 });
    expect(fs.existsSync(path.join(dir, 'file.bin'))).toBe(false);
  });

  it('curl -C - resumes an interrupted download to the same bytes', async () => {
    const dir = folder('curl-resume');
    const target = path.join(dir, 'part.tar.gz');
    // the first transfer goes through a link that breaks after about a megabyte, as a network would
    const { port, close } = await breakingLink(new URL(base).port, 1_000_000);
    try {
      const cut = url('linux').replace(base, `http://127.0.0.1:${port}`);
      await expect(run('curl', ['-fsSL', '-o', target, cut])).rejects.toMatchObject({ code: 18 });
    } finally {
      await close();
    }
    const partial = fs.statSync(target).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(big.length);

    await run('curl', ['-fsSL', '-C', '-', '-o', target, url('linux')]);
    expect(fs.statSync(target).size).toBe(big.length);
    expect(sha(fs.readFileSync(target))).toBe(sha(big));
  }, 30_000);
});

describe.skipIf(!has('wget'))('wget', () => {
  it('wget -c completes a partial file to the same bytes', async () => {
    const dir = folder('wget');
    const target = path.join(dir, 'resumed.tar.gz');
    fs.writeFileSync(target, big.subarray(0, 1_000_000));
    await run('wget', ['-q', '-c', '-O', target, url('linux')]);
    expect(sha(fs.readFileSync(target))).toBe(sha(big));
  }, 30_000);
});

describe.skipIf(!has('npm'))('npm', () => {
  it('npm install <secret URL> installs the npm artifact, which then loads', async () => {
    const project = folder('npm-project');
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-online', '--no-package-lock', url('npm')], {
      cwd: project,
      env: { ...process.env, npm_config_cache: path.join(work, 'npm-cache'), npm_config_update_notifier: 'false' },
    });
    const loaded = await run(process.execPath, ['-e', "console.log(require('portal-tiny-package'))"], {
      cwd: project,
    });
    expect(loaded.stdout.trim()).toBe('hello from the portal');
  }, 120_000);
});
