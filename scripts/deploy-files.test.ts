import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * deploy/portal.service and deploy/nginx-portal.conf, read by the programs that will read them:
 * `systemd-analyze verify` and `nginx -t`. Where a program is not installed, the file's structure
 * is checked instead and the output says so; the checks of what the portal needs from each file
 * (the stop timeout that covers the drain, the readiness probe, unbuffered downloads) always run.
 */
const root = path.resolve(import.meta.dirname, '..');
const unitFile = path.join(root, 'deploy', 'portal.service');
const siteFile = path.join(root, 'deploy', 'nginx-portal.conf');
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-deploy-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;
}

/** The unit's sections and their settings (a setting given twice keeps its last value). */
function unitSettings(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let current: Record<string, string> | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(\w+)\]$/.exec(line);
    if (section) {
      current = sections[section[1]] = {};
      continue;
    }
    const setting = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!setting || !current) throw new Error(`not a unit file line: ${line}`);
    current[setting[1]] = setting[2];
  }
  return sections;
}

describe('deploy/portal.service', () => {
  const text = fs.readFileSync(unitFile, 'utf8');

  it('gives the drain the time it needs: TimeoutStopSec outlasts the grace period', () => {
    const unit = unitSettings(text);
    expect(Object.keys(unit)).toEqual(['Unit', 'Service', 'Install']);
    expect(unit.Service.ExecStart).toMatch(/^\/\S+\/node dist-server\/server\/main\.js$/);
    expect(unit.Service.KillSignal).toBe('SIGTERM');
    // longer than SHUTDOWN_GRACE_SECONDS (300 by default), which counts from the signal and covers the delay
    expect(Number(unit.Service.TimeoutStopSec)).toBeGreaterThan(300);
    expect(unit.Install.WantedBy).toBe('multi-user.target');
  });

  it('passes systemd-analyze verify', () => {
    if (!installed('systemd-analyze')) {
      console.warn('systemd-analyze is not installed: deploy/portal.service was checked by its structure only');
      expect(() => unitSettings(text)).not.toThrow();
      return;
    }
    // the node of this machine stands in for /usr/bin/node, which verify requires to exist
    const copy = path.join(dir, 'portal.service');
    fs.writeFileSync(copy, text.replace('/usr/bin/node ', `${process.execPath} `));
    const result = spawnSync('systemd-analyze', ['verify', '--man=no', copy], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr.trim()).toBe('');
  });
});

describe('deploy/nginx-portal.conf', () => {
  const text = fs.readFileSync(siteFile, 'utf8');

  it('checks readiness, streams downloads unbuffered and keeps the artifact folder internal', () => {
    expect(text).toContain('location = /api/ready');
    expect(text).toContain('proxy_next_upstream error timeout http_503;');
    expect(text).toMatch(/location \/api\/ \{[^}]*proxy_buffering off;/);
    expect(text).toMatch(/location \/protected-artifacts\/ \{\s*internal;/);
  });

  it('passes nginx -t', () => {
    const code = text.replace(/#.*$/gm, '');
    if (!installed('nginx') || !installed('openssl')) {
      console.warn('nginx or openssl is not installed: deploy/nginx-portal.conf was checked by its structure only');
      expect(code.split('{').length).toBe(code.split('}').length);
      for (const line of code.split('\n').map((l) => l.trim())) {
        if (line && !/[{};]$/.test(line)) throw new Error(`a directive without its semicolon: ${line}`);
      }
      return;
    }
    // a throwaway certificate in place of the site's, and a main configuration a user may test
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    const made = spawnSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-days', '1', '-subj', '/CN=portal.example.com', '-keyout', key, '-out', cert,
    ], { encoding: 'utf8' }); // prettier-ignore
    expect(made.status, made.stderr).toBe(0);
    const site = path.join(dir, 'site.conf');
    fs.writeFileSync(
      site,
      text
        .replace(/ssl_certificate \S+;/, `ssl_certificate ${cert};`)
        .replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${key};`),
    );
    const main = path.join(dir, 'nginx.conf');
    const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
    fs.writeFileSync(
      main,
      [
        `pid ${path.join(dir, 'nginx.pid')};`,
        `error_log ${path.join(dir, 'error.log')};`,
        'events {}',
        `http { access_log off; ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join(' ')}`,
        `  include ${site};`,
        '}',
      ].join('\n'),
    );
    const result = spawnSync('nginx', ['-t', '-p', dir, '-c', main, '-e', path.join(dir, 'error.log')], {
      encoding: 'utf8',
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('test is successful');
  });
});
