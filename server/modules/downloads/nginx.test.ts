import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretDownloadPath } from '../../../common/api/catalogue';
import { findLicence } from '../licences/repo';
import { createCustomer, createLicence, createProduct, createVersionWithFiles } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * The artifact folder's location of deploy/nginx-portal.conf, run by the real nginx in front of a
 * listening portal with DOWNLOAD_ACCEL_REDIRECT: nginx sends the bytes and the client still gets the
 * portal's Repr-Digest (docs/decisions/080). Where nginx is not installed, the location is checked
 * by its text only and the output says so.
 */
const root = path.resolve(import.meta.dirname, '..', '..', '..');
const site = fs.readFileSync(path.join(root, 'deploy', 'nginx-portal.conf'), 'utf8');
const artifactLocation = /location \/protected-artifacts\/ \{[^}]*\}/.exec(site)?.[0] ?? '';
const installed = spawnSync('sh', ['-c', 'command -v nginx']).status === 0;

const bytes = crypto.randomBytes(256 * 1024 + 11);
const digest = `sha-256=:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;
let dir: string;
let t: TestApp;
let nginx: ChildProcess | undefined;
let base: string;
let secret: string;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  if (!installed) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-nginx-'));
  // nginx's workers may run as an unprivileged user: they must be able to read the files
  fs.chmodSync(dir, 0o755);
  const artifacts = path.join(dir, 'artifacts');
  fs.mkdirSync(artifacts, { mode: 0o755 });
  t = await createTestApp({ DOWNLOAD_ACCEL_REDIRECT: '/protected-artifacts/', ARTIFACTS_DIR: artifacts });
  const { ctx } = t.app;
  await createProduct(ctx.db, { key: 'served' });
  const customer = await createCustomer(ctx.db);
  const licence = await createLicence(ctx.db, customer.id, 'served');
  secret = (await findLicence(ctx.db, licence.id))!.downloadSecret;
  await createVersionWithFiles(ctx, 'served', { semVer: '1.0.0', files: { linux: { bytes } } });
  for (const entry of fs.readdirSync(artifacts, { recursive: true, withFileTypes: true })) {
    fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
  }
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const portalPort = (t.app.server.address() as net.AddressInfo).port;
  const port = await freePort();
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join(' ')}
  server {
    listen 127.0.0.1:${port};
    location /api/ {
      proxy_pass http://127.0.0.1:${portalPort};
      proxy_buffering off;
    }
    ${artifactLocation.replace(/alias \S+;/, `alias ${artifacts}/;`)}
  }
}
`,
  );
  nginx = spawn('nginx', ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-e', path.join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    const up = await fetch(`${base}/api/health`).then(
      () => true,
      () => false,
    );
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not start: ${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
}, 60_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx!.once('exit', resolve));
    nginx.kill('SIGTERM');
    await exited;
  }
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('downloads sent by nginx (X-Accel-Redirect)', () => {
  it('carry the Repr-Digest of the file, whole and in part', async () => {
    expect(artifactLocation).toMatch(/internal;/);
    if (!installed) {
      console.warn(
        'nginx is not installed: the artifact location of deploy/nginx-portal.conf was checked by its text only',
      );
      expect(artifactLocation).toContain('add_header Repr-Digest $upstream_http_repr_digest always;');
      return;
    }
    const url = base + secretDownloadPath('linux', 'served', '1.0.0', secret);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('server')).toMatch(/^nginx/);
    const body = Buffer.from(await whole.arrayBuffer());
    expect(body.equals(bytes)).toBe(true);
    expect(whole.headers.get('repr-digest')).toBe(digest);

    const part = await fetch(url, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
    expect(part.headers.get('repr-digest')).toBe(digest);
  });
});
