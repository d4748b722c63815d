import react from '@vitejs/plugin-react';
import zlib from 'node:zlib';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

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

export default defineConfig({
  plugins: [
    react(),
    stylesAfterLoader,
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
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    proxy: {
      '/api': toApi,
      '/dev/': toApi,
    },
  },
});
