import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

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

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': toApi,
      '/dev/': toApi,
    },
  },
});
