#!/usr/bin/env node
// Compiles the server to plain JavaScript (docs/decisions/058): server/main.ts and server/cli.ts,
// each bundled with the project's own modules into dist-server/server/{main,cli}.js; the packages of
// node_modules stay imports, resolved at run time as before. Production runs
// `node dist-server/server/main.js`: no TypeScript loader, nothing compiled at start.
//
// Files the server reads at run time next to its code are copied beside the bundles: the shipped
// legal documents (server/modules/legal/service.ts reads ./documents/ from its own module's URL,
// which in the bundle is dist-server/server/main.js). The built client (dist/) and the data folder
// are found through STATIC_DIR and DATA_DIR, as from the sources.
//
//   node scripts/build-server.mjs [outdir]   the server alone
//   node scripts/build-server.mjs --stamp    after the client's build (npm run build): also records
//                                            which sources the whole build is of (npm start reads it)
import crypto from 'node:crypto';
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** What a build is made from: npm start rebuilds when any of it changed since the last build. */
const INPUTS = [
  'client',
  'common',
  'server',
  'public',
  'index.html',
  'public.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/build-server.mjs',
];
const isTest = (file) =>
  /\.test\.tsx?$/.test(file) || file.startsWith('server/test/') || file.startsWith('client/test/');

/** A hash of every build input's path and content (tests excepted). */
export function sourcesHash() {
  const hash = crypto.createHash('sha256');
  const files = [];
  for (const input of INPUTS) {
    const full = path.join(root, input);
    if (!fs.existsSync(full)) continue;
    if (fs.statSync(full).isFile()) files.push(input);
    else {
      for (const entry of fs.readdirSync(full, { withFileTypes: true, recursive: true })) {
        if (entry.isFile()) files.push(path.relative(root, path.join(entry.parentPath, entry.name)));
      }
    }
  }
  for (const file of files.filter((f) => !isTest(f)).sort()) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The file that records which sources the last complete build (client and server) was made from. */
export const STAMP = path.join(root, 'dist-server', 'sources.sha256');

/**
 * Keeps the packages out of the bundle, each import written so that Node's own ESM resolution finds
 * it: a deep import into a package without an `exports` map (`ajv/dist/2020`) needs the file's
 * extension in plain Node, which TypeScript's bundler resolution (and tsx) did without.
 */
const packagesAsNodeImportsThem = {
  name: 'packages-as-node-imports-them',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const segments = args.path.split('/');
      const name = segments.slice(0, args.path.startsWith('@') ? 2 : 1).join('/');
      const subpath = args.path.slice(name.length);
      if (!subpath) return { path: args.path, external: true };
      const packageDir = path.join(root, 'node_modules', name);
      const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
      if (manifest.exports) return { path: args.path, external: true };
      const file = [subpath, `${subpath}.js`, `${subpath}/index.js`].find((candidate) =>
        fs.statSync(path.join(packageDir, candidate), { throwIfNoEntry: false })?.isFile(),
      );
      if (!file) return { errors: [{ text: `${args.path}: no such file in ${name}` }] };
      return { path: `${name}${file}`, external: true };
    });
  },
};

/** Bundles the server into `outdir` (dist-server by default) and copies the files it reads. */
export async function buildServer(outdir = path.join(root, 'dist-server')) {
  fs.rmSync(path.join(outdir, 'server'), { recursive: true, force: true });
  const options = {
    absWorkingDir: root,
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // the packages are imported from node_modules at run time, as from the sources
    plugins: [packagesAsNodeImportsThem],
    // names stay as written (stack traces, error names)
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  };
  // The server: what it loads only when configured (the S3 store and its SDK) stays a chunk of its
  // own, loaded at first use, so a portal without it never holds it in memory.
  await build({
    ...options,
    entryPoints: { 'server/main': 'server/main.ts' },
    splitting: true,
    chunkNames: 'server/chunks/[name]-[hash]',
  });
  // The command line, one file: it loads its commands' modules as it runs them.
  await build({ ...options, entryPoints: { 'server/cli': 'server/cli.ts' } });
  fs.cpSync(path.join(root, 'server/modules/legal/documents'), path.join(outdir, 'server/documents'), {
    recursive: true,
  });
  fs.writeFileSync(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const args = process.argv.slice(2);
  // --stamp: the client was just built too (npm run build), so the whole build is of these sources
  const stamp = args.includes('--stamp');
  const outdir = args.find((arg) => arg !== '--stamp');
  const hash = stamp ? sourcesHash() : null;
  await buildServer(outdir ? path.resolve(outdir) : undefined);
  if (hash) fs.writeFileSync(STAMP, `${hash}\n`);
}
