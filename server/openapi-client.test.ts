import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from './db';
import { findLicence } from './modules/licences/repo';
import { createProductToken, createUnpublishedVersion } from './test/artifacts';
import { createCustomer, createLicence, createProduct } from './test/factories';
import { createTestApp, type TestApp } from './test/harness';

/**
 * The client docs/api.md shows integrators, as they would use it: its generation script
 * (openapi-typescript) run against a portal that listens, its typed client (openapi-fetch) compiled
 * with tsc, then run: an upload with a product token and a download by a licence's secret.
 */
const root = path.resolve(import.meta.dirname, '..');
const EXAMPLE_URL = 'https://portal.example.com';

/** The code block that follows `<!-- file: NAME -->` in docs/api.md. */
function exampleFile(name: string): string {
  const doc = fs.readFileSync(path.join(root, 'docs', 'api.md'), 'utf8');
  const match = new RegExp(`<!-- file: ${name.replace('.', '\\.')} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/api.md has no block for ${name}`);
  return match[1];
}

/** A command run beside the portal (asynchronously: the portal answers from this process). */
function run(command: string, args: string[], cwd: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({
        status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
        output: `${stdout}${stderr}${error ? error.message : ''}`,
      }),
    );
  });
}

let t: TestApp;
let dir: string;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  baseUrl = `http://127.0.0.1:${address.port}`;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-api-client-'));
  // the example's packages resolve from the project's node_modules, as from an integrator's
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
});
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the typed client of docs/api.md', () => {
  it('is generated from the served document, compiles against it, and uploads and downloads', async () => {
    fs.writeFileSync(path.join(dir, 'generate.mjs'), exampleFile('generate.mjs').replaceAll(EXAMPLE_URL, baseUrl));
    const generated = await run(process.execPath, ['generate.mjs'], dir);
    expect(generated.status, generated.output).toBe(0);
    const types = fs.readFileSync(path.join(dir, 'portal-api.d.ts'), 'utf8');
    expect(types).toContain('uploadArtifact: {');
    expect(types).toContain('"/api/invitations/{invitation}"');

    fs.writeFileSync(path.join(dir, 'pipeline.ts'), exampleFile('pipeline.ts').replaceAll(EXAMPLE_URL, baseUrl));
    // calls the types must refuse: were the generated types loose (any), tsc would report the
    // directives as unused and fail
    fs.writeFileSync(
      path.join(dir, 'refused.ts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './portal-api';",
        "import { uploadArtifact } from './pipeline';",
        "const portal = createClient<paths>({ baseUrl: 'http://localhost' });",
        '// @ts-expect-error: no such platform',
        "void uploadArtifact('token', 1, 'amiga', new Blob([]), 'a.zip');",
        '// @ts-expect-error: no such path',
        "void portal.GET('/api/no-such-path');",
        '// @ts-expect-error: the secret is required',
        "void portal.GET('/api/get/{platform}/{productKey}/{semVer}', { params: { path: { platform: 'linux', productKey: 'p', semVer: 'latest' } } });",
        "void portal.GET('/api/users/{id}', { params: { path: { id: '1' } } }).then(({ data }) => {",
        '  // @ts-expect-error: a user has no such field',
        '  void data?.password;',
        '  return data?.email.toLowerCase();',
        '});',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        include: ['pipeline.ts', 'refused.ts', 'portal-api.d.ts'],
      }),
    );
    const compiled = await run(
      process.execPath,
      [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'],
      dir,
    );
    expect(compiled.status, compiled.output).toBe(0);

    // run against the portal: a product token uploads, a licence's secret downloads
    const { db } = t.database;
    const product = await createProduct(db);
    const versionId = await createUnpublishedVersion(db, product.key, '2.4.0');
    const { token } = await createProductToken(db, product.key);
    const bytes = crypto.randomBytes(64 * 1024);
    const pipeline = (await import(path.join(dir, 'pipeline.ts'))) as {
      uploadArtifact: (...args: unknown[]) => Promise<{ size: number; sha256: string; fileName: string }>;
      downloadArtifact: (...args: unknown[]) => Promise<Blob>;
    };
    const artifact = await pipeline.uploadArtifact(token, versionId, 'linux', new Blob([bytes]), 'tool-2.4.0.tar.gz');
    expect(artifact).toMatchObject({
      size: bytes.length,
      fileName: 'tool-2.4.0.tar.gz',
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
    });
    await expect(pipeline.uploadArtifact('pt_wrong', versionId, 'linux', new Blob([bytes]), 'a.zip')).rejects.toThrow(
      /upload refused \(401 unauthenticated\)/,
    );

    await db
      .updateTable('versions')
      .set({ published: 1, releaseDate: nowIso().slice(0, 10) })
      .where('id', '=', versionId)
      .execute();
    const customer = await createCustomer(db);
    const licence = await createLicence(db, customer.id, product.key);
    const secret = (await findLicence(db, licence.id))!.downloadSecret;
    const file = await pipeline.downloadArtifact(secret, product.key, 'latest', 'linux');
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    await expect(pipeline.downloadArtifact('wrong-secret', product.key, 'latest', 'linux')).rejects.toThrow(
      /download refused \(404 /,
    );
  }, 180_000);
});
