import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db';
import { verifyPassword } from './modules/auth/password';
import { builtScript } from './test/main-process';

/**
 * The operator CLI, run as an operator would: a separate process on the configured database, the
 * built `dist-server/server/cli.js` (built once for the run, server/test/global-setup.ts).
 */
const root = path.resolve(import.meta.dirname, '..');
let dir: string;
let databaseUrl: string;

function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return cliWith({}, ...args);
}

function cliWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtScript('cli'), ...args], {
      cwd: root,
      // a clean environment: the test runner's own variables (vitest sets BASE_URL=/) are not the operator's
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const PASSWORD = 'Operator-Password-42';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-cli-'));
  databaseUrl = `sqlite:${path.join(dir, 'portal.db')}`;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('npm run cli', () => {
  it('prints the usage with help or without arguments', async () => {
    for (const args of [[], ['help']]) {
      const result = await cli(...args);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Usage: npm run cli -- <command>');
      expect(result.stdout).toContain('create-user');
    }
  });

  it('refuses an unknown command', async () => {
    const result = await cli('launch-rockets');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Unknown command "launch-rockets"');
  });

  it('creates a staff user with a password and prints its id', async () => {
    const result = await cli(
      'create-user',
      '--type',
      'admin',
      '--email',
      'First.Admin@Example.com',
      '--password',
      PASSWORD,
      '--name',
      'First Admin',
    );
    expect(result.stderr).toContain('Created admin first.admin@example.com');
    expect(result.code).toBe(0);
    const id = Number(result.stdout.trim());
    expect(Number.isInteger(id) && id > 0).toBe(true);

    const database = openDatabase(databaseUrl);
    try {
      const user = await database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(user).toMatchObject({
        email: 'first.admin@example.com',
        fullName: 'First Admin',
        type: 'admin',
        status: 'enabled',
        preferredLocale: 'en',
      });
      expect(await verifyPassword(user.passwordHash, PASSWORD)).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('refuses an e-mail that already exists, whatever its case', async () => {
    const args = ['--type', 'supportEngineer', '--password', PASSWORD, '--name', 'Someone'];
    expect((await cli('create-user', '--email', 'twice@example.com', ...args)).code).toBe(0);
    const result = await cli('create-user', '--email', 'TWICE@example.com', ...args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('A user with the e-mail twice@example.com already exists');
  });

  it('explains which password rule fails first', async () => {
    const base = ['create-user', '--type', 'admin', '--email', 'weak@example.com', '--name', 'Weak'];
    const short = await cli(...base, '--password', 'Short-1');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('--password must be at least 15 characters long');
    const noDigit = await cli(...base, '--password', 'No-Digits-In-This-One');
    expect(noDigit.stderr).toContain('--password must contain a digit');
    const common = await cli(...base, '--password', 'Password12345!!');
    expect(common.code).not.toBe(0);
    expect(common.stderr).toContain('--password is too easy to guess');
    const personal = await cli(...base, '--password', 'Weak@Example.com-2024');
    expect(personal.stderr).toContain("--password must not be made of the user's e-mail address");
  });

  it('refuses a type that is not a staff type, and missing or unknown options', async () => {
    const wrongType = await cli(
      'create-user',
      '--type',
      'client',
      '--email',
      'client@example.com',
      '--password',
      PASSWORD,
      '--name',
      'Client',
    );
    expect(wrongType.code).not.toBe(0);
    expect(wrongType.stderr).toContain(
      '--type must be one of admin, accountExecutive, productManager, supportEngineer',
    );

    const missing = await cli('create-user', '--type', 'admin');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--email is required');
    expect(missing.stderr).toContain('--password is required');
    expect(missing.stderr).toContain('--name is required');

    const unknown = await cli('create-user', '--role', 'admin');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("'--role'");

    const badEmail = await cli(
      'create-user',
      '--type',
      'admin',
      '--email',
      'nope',
      '--password',
      PASSWORD,
      '--name',
      'N',
    );
    expect(badEmail.stderr).toContain('--email is not a valid e-mail address');
  });

  it('rotates the licence signing key: the new one signs, the old one stays published as retired', async () => {
    const first = await cli('rotate-licence-key');
    expect(first.code).toBe(0);
    const firstId = first.stdout.trim();
    expect(first.stderr).toContain(`Licence files are now signed with key ${firstId}`);

    const second = await cli('rotate-licence-key');
    expect(second.code).toBe(0);
    const secondId = second.stdout.trim();
    expect(secondId).not.toBe(firstId);
    expect(second.stderr).toContain(`key ${firstId} is retired and still published`);

    const database = openDatabase(databaseUrl);
    try {
      const keys = await database.db.selectFrom('licenceSigningKeys').selectAll().orderBy('createdAt').execute();
      expect(keys.map((k) => ({ keyId: k.keyId, active: k.retiredAt === null }))).toEqual([
        { keyId: firstId, active: false },
        { keyId: secondId, active: true },
      ]);
      // the private key is stored sealed, never as PEM
      expect(keys.every((k) => k.privateKeySealed?.startsWith('v1.') && !k.privateKeySealed.includes('PRIVATE'))).toBe(
        true,
      );
    } finally {
      await database.close();
    }
  });

  it('rotates the OpenID Connect signing key the same way: the new id on stdout, the old one retired', async () => {
    const first = await cli('rotate-oidc-key');
    expect(first.code).toBe(0);
    const firstId = first.stdout.trim();
    expect(first.stderr).toContain(`OpenID Connect tokens are signed with key ${firstId} once the portal restarts`);
    const second = await cli('rotate-oidc-key');
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).not.toBe(firstId);
    expect(second.stderr).toContain(`key ${firstId} is retired and still published for 30 days`);
    expect((await cli('rotate-oidc-key', '--now')).code).not.toBe(0);
  });

  it('refuses to rotate a configured licence signing key, and says how to change it', async () => {
    const pem = crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const result = await cliWith({ LICENCE_SIGNING_KEY: pem }, 'rotate-licence-key');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('The licence signing key is configured');
    expect(result.stderr).toContain('configure the new key and restart');

    const notAKey = await cliWith({ LICENCE_SIGNING_KEY: 'not a key' }, 'rotate-licence-key');
    expect(notAKey.code).toBe(1);
    expect(notAKey.stderr).toContain('LICENCE_SIGNING_KEY: must be an Ed25519 private key in PEM');
  });

  it('backs up and restores with progress, and refuses a target that holds data without a stack trace', async () => {
    const backup = path.join(dir, 'backup');
    const made = await cliWith({ DATA_DIR: dir }, 'backup', '--to', backup);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stderr).toContain('Backing up the SQLite database');
    expect(made.stderr).toMatch(/Backup written to .* \(migration level \d+_\w+, \d+ files\)/);
    expect(made.stdout.trim()).toBe(backup);

    const target = path.join(dir, 'restored');
    const env = { DATABASE_URL: `sqlite:${path.join(target, 'portal.db')}`, DATA_DIR: target };
    const restored = await cliWith(env, 'restore', '--from', backup);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stderr).toContain("Checking the backup's");
    expect(restored.stderr).toContain('Restore done');
    const database = openDatabase(env.DATABASE_URL);
    try {
      const users = await database.db.selectFrom('users').select('email').orderBy('email').execute();
      expect(users.map((u) => u.email)).toContain('first.admin@example.com');
    } finally {
      await database.close();
    }

    const again = await cliWith(env, 'restore', '--from', backup);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Restore failed: The target database is not empty');
    expect(again.stderr).not.toMatch(/\n\s+at /);
  });
});
