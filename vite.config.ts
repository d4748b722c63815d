import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { isPublicPage } from './common/public-pages';
import { pickSections, SIGN_IN_TEXT_SECTIONS } from './client/public/signInTexts';

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

/** `<language>.json?sign-in`: the sections of the texts the sign-in pages use (decision 024). */
const signInTexts: Plugin = {
  name: 'sign-in-texts',
  enforce: 'pre',
  async load(id) {
    const [file, query = ''] = id.split('?');
    if (!new URLSearchParams(query).has('sign-in') || !file.endsWith('.json')) return null;
    this.addWatchFile(file);
    const texts = JSON.parse(await fs.promises.readFile(file, 'utf8')) as Record<string, unknown>;
    return `export default ${JSON.stringify(pickSections(texts, SIGN_IN_TEXT_SECTIONS))};`;
  },
};

/** Both HTML pages paint the same loader at once (client/boot-loader.html), in place of its comment. */
const bootLoader: Plugin = {
  name: 'boot-loader',
  transformIndexHtml: {
    order: 'pre',
    handler(html) {
      const loader = fs.readFileSync(fileURLToPath(new URL('client/boot-loader.html', import.meta.url)), 'utf8');
      return html.replace('<!-- boot-loader -->', loader);
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

export default defineConfig({
  plugins: [
    react(),
    signInTexts,
    bootLoader,
    stylesAfterLoader,
    signInPages,
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
    },
  },
  server: {
    proxy: {
      '/api': toApi,
      '/dev/': toApi,
    },
  },
});
