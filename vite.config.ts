import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { createServer, defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { BOOT_SCRIPT } from './common/boot-loader';
import { isPublicPage } from './common/public-pages';
import { omitSections, pickSections, SIGN_IN_TEXT_SECTIONS } from './client/public/sign-in-texts';

const API_SERVER = process.env.PORTAL_API_URL ?? 'http://localhost:3000';

/**
 * The API refuses state-changing requests whose Origin is not its own. Pages served by this dev
 * server are the portal itself, so their requests are presented with the API's origin.
 */
const toApi: ProxyOptions = {
  target: API_SERVER,
  configure(proxy) {
    proxy.on('proxyReq', (proxyRequest) => {
      if (proxyRequest.getHeader('origin')) proxyRequest.setHeader('origin', new URL(API_SERVER).origin);
    });
  },
};

/**
 * `<language>.json?sign-in`: the sections of the texts the sign-in pages use (decision 024), and
 * `<language>.json?app`: the others, which the application loads beside them (decision 054), so that
 * no text is shipped twice.
 */
export const textSections: Plugin = {
  name: 'text-sections',
  enforce: 'pre',
  async load(id) {
    const [file, query = ''] = id.split('?');
    const params = new URLSearchParams(query);
    if (!file.endsWith('.json') || !(params.has('sign-in') || params.has('app'))) return null;
    this.addWatchFile(file);
    const texts = JSON.parse(await fs.promises.readFile(file, 'utf8')) as Record<string, unknown>;
    const part = params.has('sign-in')
      ? pickSections(texts, SIGN_IN_TEXT_SECTIONS)
      : omitSections(texts, SIGN_IN_TEXT_SECTIONS);
    return `export default ${JSON.stringify(part)};`;
  },
};

/**
 * Mantine's ScrollArea imports one hook from `@floating-ui/react`, `useMergeRefs`, and every Table
 * has a ScrollArea (Table.ScrollContainer), even the portal's, which scroll natively. The bundler puts
 * a module in one chunk whole, so each page with a table waited for floating-ui (12 KB compressed,
 * the positioning of menus, tooltips and popovers it does not open before its first paint). For that
 * importer only, the hook is taken from floating-ui's own file at build time, alone in a module
 * (decision 092); the build fails if it is no longer found there.
 */
const MERGE_REFS_ID = '\0floating-ui-use-merge-refs';
const SCROLL_AREA = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/;
function scrollAreaMergeRefs(): Plugin {
  let floatingUi: string | null = null;
  return {
    name: 'scroll-area-merge-refs',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source !== '@floating-ui/react' || !importer || !SCROLL_AREA.test(importer)) return null;
      floatingUi ??= (await this.resolve(source, importer, { skipSelf: true }))?.id ?? null;
      return MERGE_REFS_ID;
    },
    async load(id) {
      if (id !== MERGE_REFS_ID) return null;
      if (!floatingUi) throw new Error('@floating-ui/react was not found');
      const source = await fs.promises.readFile(floatingUi, 'utf8');
      const hook = /\nfunction useMergeRefs\(refs\) \{\n[\s\S]*?\n\}\n/.exec(source);
      if (!hook) throw new Error(`useMergeRefs is no longer in ${floatingUi}: see decision 092`);
      return `import * as React from 'react';\n${hook[0]}\nexport { useMergeRefs };\n`;
    },
  };
}

/** The sign-in pages pre-rendered at build time, per language: the markup paints before any script. */
const PRERENDERED = [
  { path: '/login', file: 'login.html' },
  { path: '/password-lost', file: 'password-lost.html' },
  // a stranger's first page (decision 067)
  { path: '/sign-up', file: 'sign-up.html' },
];

/**
 * Writes `prerendered/<locale>/<page>.html`: public.html with the page's first render in #root (to
 * be hydrated) and its small style sheet inlined, so that the page paints with nothing else to fetch;
 * each with its brotli and gzip twins. The server sends it for that address (decision 024).
 */
function prerenderSignInPages(): Plugin {
  let outDir = 'dist';
  return {
    name: 'prerender-sign-in-pages',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const server = await createServer({
        configFile: false,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, watch: null },
      });
      try {
        const { renderSignInPage } = (await server.ssrLoadModule('/client/public/prerender.tsx')) as {
          renderSignInPage: (locale: string, path: string) => Promise<string>;
        };
        const page = fs.readFileSync(path.join(outDir, 'public.html'), 'utf8');
        const link = /<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>\s*/.exec(page);
        if (!link) throw new Error('public.html links no style sheet');
        const css = fs.readFileSync(path.join(outDir, link[1]), 'utf8');
        const shell = page.replace(link[0], '').replace('</head>', `<style>${css}</style>\n  </head>`);
        for (const locale of ['en', 'fr']) {
          fs.mkdirSync(path.join(outDir, 'prerendered', locale), { recursive: true });
          for (const { path: pagePath, file } of PRERENDERED) {
            const markup = await renderSignInPage(locale, pagePath);
            const html = shell
              .replace(/<html lang="[a-z]+">/, `<html lang="${locale}">`)
              .replace(
                /<div id="root">[\s\S]*?<\/div>\s*<noscript>/,
                () => `<div id="root" data-prerendered>${markup}</div>\n    <noscript>`,
              );
            const target = path.join(outDir, 'prerendered', locale, file);
            fs.writeFileSync(target, html);
            fs.writeFileSync(
              `${target}.br`,
              zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
            );
            fs.writeFileSync(`${target}.gz`, zlib.gzipSync(html, { level: 9 }));
          }
        }
      } finally {
        await server.close();
      }
    },
  };
}

/**
 * Both HTML pages paint the same loader at once (client/boot-loader.html), in place of its comment,
 * with its script inline (allowed by its hash, server/plugins/security.ts).
 */
const bootLoader: Plugin = {
  name: 'boot-loader',
  transformIndexHtml: {
    order: 'pre',
    handler(html) {
      const loader = fs.readFileSync(fileURLToPath(new URL('client/boot-loader.html', import.meta.url)), 'utf8');
      return html.replace('<!-- boot-loader -->', () =>
        loader.replace('<!-- boot-script -->', () => `<script>${BOOT_SCRIPT}</script>`),
      );
    },
  },
};

/**
 * Vite links the style sheet in the head, where it holds back the first paint until it has arrived:
 * on a slow network, a white page for seconds. After the inline loader in the body, it holds back
 * only what follows; the app's script still waits for it (client/main.tsx).
 */
const stylesAfterLoader: Plugin = {
  name: 'styles-after-loader',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html) {
      const links = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
      const rest = links.reduce((page, link) => page.replace(link, ''), html);
      return rest.replace('</noscript>', `</noscript>\n    ${links.join('\n    ')}`);
    },
  },
};

/** As the server does (server/plugins/spa.ts): the sign-in pages are answered with public.html. */
const signInPages: Plugin = {
  name: 'sign-in-pages',
  configureServer(server) {
    server.middlewares.use((request, _response, next) => {
      const accept = request.headers.accept ?? '';
      if (request.url && accept.includes('text/html') && isPublicPage(request.url.split('?')[0])) {
        request.url = `/public.html${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`;
      }
      next();
    });
  },
};

/** floating-ui and Mantine's components that float over the page on it (the 'floating' chunk). */
const FLOATING =
  /[\\/]node_modules[\\/](@floating-ui[\\/]|@mantine[\\/]core[\\/]esm[\\/](utils[\\/]Floating|components[\\/](Popover|Tooltip|Combobox|Select|Menu|Autocomplete|MultiSelect|TagsInput|HoverCard)[\\/]))/;

/**
 * The modules each HTML page runs before anything else (its entry's static imports, recursively) and
 * all it may ever load (with the dynamic imports), known once the module graph is (buildEnd, before
 * the chunks are made).
 */
const pageModules = {
  index: { initial: new Set<string>(), all: new Set<string>() },
  public: { initial: new Set<string>(), all: new Set<string>() },
};
/** What the pages, the top bar and the other lazy parts run when they open, their dialogs aside. */
const pageStatic = new Set<string>();
/** What the application's pages run when they open: routes.tsx's lazy pages and their static imports. */
const routeStatic = new Set<string>();
/** The modules a dialog's code starts from: what `lazyDialog` and `lazyFormDialog` import (decision 092). */
const dialogModules = new Set<string>();
const dialogImports: Plugin = {
  name: 'dialog-imports',
  apply: 'build',
  async transform(code, id) {
    if (!/[\\/]client[\\/].*\.tsx?$/.test(id) || !/lazy(Form)?Dialog|loadModal =/.test(code)) return null;
    for (const match of code.matchAll(/(lazy(?:Form)?Dialog\(|loadModal = )[^;]*?import\(["']([^"']+)["']\)/g)) {
      const resolved = await this.resolve(match[2], id);
      if (resolved) dialogModules.add(resolved.id);
    }
    return null;
  },
};
const pageModuleSets: Plugin = {
  name: 'page-module-sets',
  apply: 'build',
  buildEnd() {
    const walk = (id: string, into: Set<string>, dynamic: boolean) => {
      if (into.has(id)) return;
      into.add(id);
      const info = this.getModuleInfo(id);
      for (const imported of info?.importedIds ?? []) walk(imported, into, dynamic);
      if (dynamic) for (const imported of info?.dynamicallyImportedIds ?? []) walk(imported, into, dynamic);
    };
    // What runs when a page or a part of one opens (the entries, every lazy module but a dialog,
    // and their static imports), not what a dialog brings when it first opens (decision 092).
    pageStatic.clear();
    const lazyModules = new Set<string>();
    for (const id of this.getModuleIds()) {
      for (const imported of this.getModuleInfo(id)?.dynamicallyImportedIds ?? []) lazyModules.add(imported);
    }
    for (const page of ['index', 'public'])
      walk(fileURLToPath(new URL(`${page}.html`, import.meta.url)), pageStatic, false);
    for (const id of lazyModules) if (!dialogModules.has(id)) walk(id, pageStatic, false);
    // what the pages themselves run when they open: routes.tsx's dynamic imports and their static ones
    routeStatic.clear();
    const routes = fileURLToPath(new URL('client/app/routes.tsx', import.meta.url));
    for (const page of this.getModuleInfo(routes)?.dynamicallyImportedIds ?? []) walk(page, routeStatic, false);
    for (const [page, sets] of Object.entries(pageModules)) {
      const entry = fileURLToPath(new URL(`${page}.html`, import.meta.url));
      sets.initial.clear();
      sets.all.clear();
      walk(entry, sets.initial, false);
      walk(entry, sets.all, true);
    }
  },
};

export default defineConfig({
  plugins: [
    react(),
    scrollAreaMergeRefs(),
    textSections,
    bootLoader,
    stylesAfterLoader,
    signInPages,
    prerenderSignInPages(),
    dialogImports,
    pageModuleSets,
    // Each text file gets a brotli and a gzip copy at the strongest settings, once, at build time;
    // the server sends the one the browser accepts (server/plugins/spa.ts, decision 020).
    compression({
      include: /\.(js|css|html|svg|json|txt)$/,
      exclude: /\.map$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Followed by scripts/check-bundle-size.mjs to measure each route as the browser loads it.
    manifest: true,
    // Written for reading a production stack trace, referenced by no file and never served.
    sourcemap: 'hidden',
    // Compressing at the strongest settings takes seconds by design; no warning about it each build.
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // Two pages: the application, and the sign-in pages without its libraries (decision 024).
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        public: fileURLToPath(new URL('public.html', import.meta.url)),
      },
      // What a page runs before anything else goes in a few chunks, not in dozens of small ones
      // (each file is compressed on its own, so small ones compress badly, and each adds import
      // lines; decision 054): the modules both pages run first ('shared': React, react-dom,
      // zod/mini, the common code), those the application runs first that a sign-in page may load
      // later ('signInShared'), and the rest of what the application runs first ('app', merged into
      // its entry). `$initial` is the bundler's own reckoning after tree-shaking; the sets add which
      // page needs what. Everything loaded later (pages, dialogs, texts) is split as before.
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'shared',
              priority: 2,
              tags: ['$initial'],
              test: (id) => pageModules.public.initial.has(id) && pageModules.index.initial.has(id),
            },
            {
              name: 'signInShared',
              priority: 2,
              tags: ['$initial'],
              test: (id) =>
                pageModules.index.initial.has(id) &&
                pageModules.public.all.has(id) &&
                !pageModules.public.initial.has(id),
            },
            {
              name: 'app',
              priority: 1,
              tags: ['$initial'],
              test: (id) => pageModules.index.initial.has(id) && !pageModules.public.all.has(id),
            },
            {
              // The application's own modules that several pages share (API calls, hooks, small
              // components) and that it does not run first: one file rather than a dozen of 1 to 7 KB.
              // Only what a page runs as it opens: a module that only the top bar's menus or a dialog
              // use would make every page wait for it (decision 092).
              // What a sign-in page may load stays apart, to keep their weight (decision 053).
              name: 'appShared',
              priority: 0,
              minShareCount: 2,
              test: (id) =>
                /[\\/]client[\\/](api|app|components|i18n)[\\/]/.test(id) &&
                !/\.json(\?|$)/.test(id) &&
                routeStatic.has(id) &&
                !pageModules.index.initial.has(id) &&
                !pageModules.public.all.has(id),
            },
            {
              // The application's own code that no page runs when it opens, its dialogs' (their forms,
              // decision 092): one file, fetched once the page has painted or when a dialog opens.
              name: 'dialogs',
              priority: 0,
              includeDependenciesRecursively: false,
              test: (id) =>
                /[\\/]client[\\/]/.test(id) &&
                !/\.json(\?|$)/.test(id) &&
                !pageStatic.has(id) &&
                !pageModules.index.initial.has(id) &&
                !pageModules.public.all.has(id),
            },
            {
              // What positions the floating layers (tooltips, menus, popovers, the select's list):
              // floating-ui and the Mantine components built on it, in one file of their own. No page
              // shows one at its first paint (tooltips, menus and pickers come after it: Tooltip.tsx,
              // TopBarMenus, dialogs), and in the split by pages below its parts were merged into
              // whichever page's file was nearest, landing on pages that never draw one (decision 092).
              // (what the application runs first stays in its entry: 'app' comes before this group)
              // What they import from elsewhere (a portal, an icon) stays where the pages find it;
              // the chevron, the class names and the options parser a native select takes from Combobox's folder too.
              name: 'floating',
              priority: 0.5,
              includeDependenciesRecursively: false,
              // The portal's tooltip fetches Mantine's from here (client/components/tooltip-code.ts).
              test: (id) =>
                /[\\/]client[\\/]components[\\/]tooltip-code\.ts$/.test(id) ||
                (FLOATING.test(id) &&
                  !/ComboboxChevron|Combobox\.module|get-parsed-combobox-data/.test(id) &&
                  !pageModules.public.initial.has(id)),
            },
            {
              // The interface components the pages load later, in a few files rather than one per
              // component: a page's first visit made about thirty requests of 1 to 4 KB for them,
              // which a phone's network pays in round trips more than in bytes (decision 053). Split
              // by the pages that load them (those under 24 KB merged with a neighbour, decision 092): in one file,
              // every page waited for every page's components, the menus' and dialogs' too (decision 091).
              name: 'components',
              priority: 0,
              entriesAware: true,
              entriesAwareMergeThreshold: 24 * 1024,
              test: (id) =>
                /[\\/]node_modules[\\/](@mantine[\\/]core|@floating-ui)[\\/]/.test(id) &&
                !pageModules.public.initial.has(id),
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': toApi,
      '/dev/': toApi,
    },
  },
});
