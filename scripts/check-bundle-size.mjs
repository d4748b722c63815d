#!/usr/bin/env node
// Build-size budget: the JavaScript a browser loads for a route, as it travels (each file
// compressed on its own, as the server sends it). Follows Vite's manifest (build.manifest) from the
// entry through its static imports (what index.html preloads), then the lazy chunks the route
// needs (its page and what that imports, the current language's translations). The whole app is
// every JavaScript file in the build. Exits 1 when a budget is exceeded.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const KB = 1024;
/** Issue 32's critical-path budget for a signed-in page on a median phone: the goal beside each page's budget. */
const SIGNED_IN_GOAL_KB = 150;

/**
 * Routes the budget watches: the page (HTML entry) that serves them and the lazy modules each needs
 * besides that entry, as manifest keys. The sign-in pages have a page of their own, public.html,
 * without the signed-in application's libraries (decision 024).
 */
const ROUTES = [
  {
    name: '/en/login',
    entry: 'public.html',
    budgetKb: 120,
    // The room the pages still to come (sign-up, two-factor sign-in) should leave (decision 054).
    goalKb: 100,
    lazy: ['client/pages/login/LoginPage.tsx', 'client/i18n/en.json?sign-in'],
  },
  {
    // a stranger's first page (decision 067), with the sign-in pages' weight
    name: '/en/sign-up',
    entry: 'public.html',
    budgetKb: 120,
    lazy: ['client/pages/sign-up/SignUpPage.tsx', 'client/i18n/en.json?sign-in'],
  },
  ...signedInPages(),
];

/**
 * A signed-in page's critical path: what must have arrived before it paints (decision 091). The
 * application's entry with its static imports, the page's code with its own, both halves of the
 * language's texts (main.tsx waits for them before the first render) and the top bar, which the
 * shell asks for at start (Shell.tsx preloadTopBar); not what comes once it has painted (the top
 * bar's menus, the dialogs, the tooltips, decision 092). The same code serves every role on a page. Each page's
 * budget is what it weighs now with a few KB to spare, enforced so that it only gets lighter; the
 * 150 KB a median phone affords (issue 32) is the goal, printed beside it: decision 092 says what
 * stands between them.
 */
function signedInPages() {
  const pages = [
    ['/en/accounts/:id (customer page)', 'client/pages/account/AccountPage.tsx', 212],
    ['/en/customers', 'client/pages/customers/CustomersPage.tsx', 195],
    ['/en/products', 'client/pages/products/ProductsPage.tsx', 195],
    ['/en/products/:key (versions)', 'client/pages/products/ProductPage.tsx', 205],
    ['/en/accounts/:id/changes/… (since a version)', 'client/pages/changes/ChangesPage.tsx', 200],
    ['/en/users', 'client/pages/users/UsersPage.tsx', 195],
    ['/en/settings', 'client/pages/settings/SettingsPage.tsx', 205],
  ];
  return pages.map(([name, page, budgetKb]) => ({
    name,
    entry: 'index.html',
    budgetKb,
    goalKb: SIGNED_IN_GOAL_KB,
    lazy: [page, 'client/app/TopBar.tsx', 'client/i18n/en.json?sign-in', 'client/i18n/en.json?app'],
  }));
}
const APP_BUDGET_KB = 400;
/** Printed, not enforced: the margin to keep under the whole app's budget (decision 054). */
const APP_GOAL_KB = 350;

/** The entry chunk of a Vite manifest: the named page's script, else the first entry. */
function entryKey(manifest, name) {
  const key = name ?? Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!key || !manifest[key]?.isEntry) throw new Error(`The manifest has no entry chunk${name ? ` ${name}` : ''}`);
  return key;
}

/** The chunks a module loads before it runs: itself and its static imports, recursively. */
function staticClosure(manifest, keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest has no chunk ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...seen].map((key) => manifest[key].file);
}

/** gzip and brotli at their strongest, as the build pre-compresses them. */
export function compressedSizes(buffer) {
  return {
    raw: buffer.length,
    gzip: zlib.gzipSync(buffer, { level: 9 }).length,
    brotli: zlib.brotliCompressSync(buffer, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buffer.length },
    }).length,
  };
}

function sum(files, sizeOf) {
  const total = { raw: 0, gzip: 0, brotli: 0 };
  for (const file of files) {
    const size = sizeOf(file);
    total.raw += size.raw;
    total.gzip += size.gzip;
    total.brotli += size.brotli;
  }
  return total;
}

/**
 * Measures each route and the whole app. `sizeOf(file)` gives a file's sizes (tests pass made-up
 * ones); `jsFiles` is every JavaScript file of the build.
 */
export function measure({
  manifest,
  jsFiles,
  sizeOf,
  routes = ROUTES,
  appBudgetKb = APP_BUDGET_KB,
  appGoalKb = APP_GOAL_KB,
}) {
  const rows = routes.map((route) => {
    const entry = entryKey(manifest, route.entry);
    const files = staticClosure(manifest, [entry, ...route.lazy]).filter((file) => file.endsWith('.js'));
    // Another page's entry among a route's files runs that page's application in this one (a light
    // page's chunk importing a module the bundler put with the application's first run).
    const otherEntries = Object.entries(manifest)
      .filter(([key, chunk]) => chunk.isEntry && key !== entry)
      .map(([, chunk]) => chunk.file);
    const strays = files.filter((file) => otherEntries.includes(file));
    return { name: route.name, files, strays, budgetKb: route.budgetKb, goalKb: route.goalKb, ...sum(files, sizeOf) };
  });
  rows.push({
    name: 'whole app (all chunks)',
    files: jsFiles,
    budgetKb: appBudgetKb,
    goalKb: appGoalKb,
    ...sum(jsFiles, sizeOf),
    strays: [],
  });
  // A route with a goal and no budget yet is printed, never failed.
  for (const row of rows) row.over = row.budgetKb !== undefined && row.gzip > row.budgetKb * KB;
  return rows;
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`;

export function formatTable(rows, sizeOf, { details = true } = {}) {
  const lines = [];
  const line = (cells) => lines.push(cells.map((c, i) => (i === 0 ? c.padEnd(44) : c.padStart(11))).join(' '));
  line(['JavaScript (each file compressed)', 'files', 'raw', 'gzip', 'brotli', 'budget', 'result', 'goal']);
  for (const row of rows) {
    line([
      row.name,
      String(row.files.length),
      kb(row.raw),
      kb(row.gzip),
      kb(row.brotli),
      row.budgetKb === undefined ? '—' : `${row.budgetKb} KB`,
      row.budgetKb === undefined ? 'goal only' : row.over ? 'OVER' : 'ok',
      row.goalKb ? `${row.goalKb} KB${row.gzip > row.goalKb * KB ? ' (not yet)' : ''}` : '',
    ]);
  }
  if (details) {
    for (const row of rows.slice(0, -1)) {
      lines.push('', `${row.name}, file by file (gzip):`);
      const sized = row.files.map((file) => [file, sizeOf(file).gzip]).sort((a, b) => b[1] - a[1]);
      for (const [file, gzip] of sized) lines.push(`  ${file.padEnd(52)} ${kb(gzip).padStart(10)}`);
    }
  }
  return lines.join('\n');
}

function main() {
  const dist = path.resolve(process.argv[2] ?? 'dist');
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) {
    console.error(`No ${manifestFile}: build the client first (vite build writes it, build.manifest).`);
    process.exit(1);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  const jsFiles = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((file) => file.endsWith('.js'))
    .map((file) => `assets/${file}`);
  const cache = new Map();
  const sizeOf = (file) => {
    if (!cache.has(file)) cache.set(file, compressedSizes(fs.readFileSync(path.join(dist, file))));
    return cache.get(file);
  };
  const rows = measure({ manifest, jsFiles, sizeOf });
  console.log(formatTable(rows, sizeOf));
  const over = rows.filter((row) => row.over);
  for (const row of over) {
    console.error(`${row.name}: ${kb(row.gzip)} gzip, over its ${row.budgetKb} KB budget`);
  }
  const crossing = rows.filter((row) => row.strays.length > 0);
  for (const row of crossing) {
    console.error(`${row.name} loads another page's entry (${row.strays.join(', ')}): it would start that page's code`);
  }
  process.exit(over.length || crossing.length ? 1 : 0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
